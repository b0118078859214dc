// `paybox webhooks test-receiver`: a battery of deliveries, signed right or deliberately wrong, each
// answer judged against spec 5 and 6. Only the answers are seen, never side effects.
import { signWebhook, WEBHOOK_SIGNATURE_HEADER } from '../signing.js'
import { postWebhook, type WebhookAnswer } from './post-webhook.js'
import { sampleWebhookData, samplePaymentId, type SampleStatus } from './sample-webhooks.js'
import { serializeWebhookBody } from './webhook-body.js'

/** A receiver must answer within this long (spec 6, rule 4). */
export const RESPONSE_BUDGET_MS = 10_000

export const DEDUPLICATION_RULE =
  'paybox sees only the answers, not what your receiver does with a delivery: it cannot tell whether a duplicate was processed twice. ' +
  'Deduplicate by payment id, and by payment id plus status for resends (spec 6, rule 3), never by signature; answer 2xx to a repeat.'

/** accept: must be answered 2xx within the budget; reject: must not be 2xx; survive: must get an answer below 500. */
export type Expectation = 'accept' | 'reject' | 'survive'

/** One delivery's answer: its HTTP status (null when none), how long it took, why there was none. */
export type SendResult = WebhookAnswer

export interface CaseResult {
  id: string
  title: string
  expectation: Expectation
  /** What a correct receiver does, in words. */
  expected: string
  sends: SendResult[]
  verdict: 'pass' | 'fail'
  /** Why it failed, or a remark on a pass. */
  detail: string | null
}

export interface ResponseTimeResult {
  budgetMs: number
  /** The slowest answer and its case; null when nothing answered. */
  slowest: { caseId: string; durationMs: number } | null
  /** Sends that got no answer before the timeout. */
  timedOut: number
  verdict: 'pass' | 'fail'
}

export interface GradingReport {
  url: string
  timeoutMs: number
  cases: CaseResult[]
  responseTime: ResponseTimeResult
  deduplication: string
  /** Every case and the response time passed. */
  passed: boolean
}

export interface GradingOptions {
  url: string
  secret: string
  /** How long to wait for each answer (default: the 10 s budget). */
  timeoutMs?: number
  userAgent?: string
  /** Milliseconds since the epoch, for the payloads' history. */
  now?: () => number
  /** What sends the deliveries (default: the global fetch); the sandbox's dashboard passes one that obeys its egress rule. */
  fetch?: typeof fetch
}

interface Delivery {
  body: string
  /** The X-WEBHOOK-AUTH header; undefined sends none. */
  signature: string | undefined
}

interface CaseSpec {
  id: string
  title: string
  expectation: Expectation
  expected: string
  deliveries: Delivery[]
}

const isAccepted = (send: SendResult): boolean => send.status !== null && send.status >= 200 && send.status < 300

/** The battery, in the order it is sent: each case's deliveries go one after another. */
function battery(secret: string, now: number): CaseSpec[] {
  const body = (paymentId: string, status: SampleStatus) => serializeWebhookBody(sampleWebhookData(paymentId, status, now))
  const signed = (text: string): Delivery => ({ body: text, signature: signWebhook(text, secret) })

  const first = signed(body(samplePaymentId(), 'open'))
  // Forgeries claim a payment is paid: what an attacker would send.
  const forged = body(samplePaymentId(), 'paid')
  const underpaid = sampleWebhookData(samplePaymentId(), 'underpaid', now)
  const tampered = serializeWebhookBody({ ...underpaid, status: 'paid', amount_paid: 2500, amount_received: 25, amount_remaining: 0 })
  const late = samplePaymentId()
  const paid = signed(body(late, 'paid'))

  return [
    {
      id: 'signed',
      title: 'Correctly signed event',
      expectation: 'accept',
      expected: `2xx within ${RESPONSE_BUDGET_MS / 1000} s`,
      deliveries: [first],
    },
    {
      id: 'duplicate',
      title: 'Duplicate delivery (same bytes again)',
      expectation: 'accept',
      expected: '2xx, handled once',
      deliveries: [first],
    },
    {
      id: 'bad-signature',
      title: 'Signature made with another secret',
      expectation: 'reject',
      expected: 'non-2xx',
      deliveries: [{ body: forged, signature: signWebhook(forged, `${secret}-wrong`) }],
    },
    {
      id: 're-serialized',
      title: 'Signature over re-serialized JSON, not the raw bytes',
      expectation: 'reject',
      expected: 'non-2xx',
      // The bytes sent are indented, as the sandbox's; the signature covers JSON.stringify of their parse.
      deliveries: [{ body: forged, signature: signWebhook(JSON.stringify(JSON.parse(forged)), secret) }],
    },
    {
      id: 'empty-signature',
      title: `Empty ${WEBHOOK_SIGNATURE_HEADER.toUpperCase()} header`,
      expectation: 'reject',
      expected: 'non-2xx',
      deliveries: [{ body: forged, signature: '' }],
    },
    {
      id: 'missing-signature',
      title: `No ${WEBHOOK_SIGNATURE_HEADER.toUpperCase()} header`,
      expectation: 'reject',
      expected: 'non-2xx',
      deliveries: [{ body: forged, signature: undefined }],
    },
    {
      id: 'tampered-body',
      title: 'Body changed after signing (underpaid → paid)',
      expectation: 'reject',
      expected: 'non-2xx',
      deliveries: [{ body: tampered, signature: signWebhook(serializeWebhookBody(underpaid), secret) }],
    },
    {
      id: 'out-of-order',
      title: 'Out of order: paid, then underpaid',
      expectation: 'survive',
      expected: 'an answer below 500 to both',
      deliveries: [paid, signed(body(late, 'underpaid'))],
    },
    {
      id: 'resend',
      title: 'Resend of an earlier event (same payment and status)',
      expectation: 'accept',
      expected: '2xx, handled once',
      deliveries: [paid],
    },
  ]
}

function judge(spec: CaseSpec, sends: SendResult[]): Pick<CaseResult, 'verdict' | 'detail'> {
  const statuses = sends.map((send) => (send.status === null ? `no answer (${send.error})` : `HTTP ${send.status}`)).join(', then ')
  if (spec.expectation === 'accept') {
    const slow = sends.find((send) => isAccepted(send) && send.durationMs > RESPONSE_BUDGET_MS)
    if (sends.every(isAccepted) && !slow) return { verdict: 'pass', detail: null }
    if (slow)
      return {
        verdict: 'fail',
        detail: `answered after ${slow.durationMs} ms, past the ${RESPONSE_BUDGET_MS / 1000} s budget: the sandbox logs it as failed`,
      }
    const why =
      spec.id === 'signed'
        ? 'a correctly signed event must be accepted'
        : 'a repeat must be acknowledged (2xx); dedupe it instead of refusing it'
    return { verdict: 'fail', detail: `${statuses}: ${why}` }
  }
  if (spec.expectation === 'reject') {
    if (sends.some(isAccepted))
      return { verdict: 'fail', detail: `${statuses}: a delivery whose signature does not match its raw bytes was accepted` }
    const unanswered = sends.some((send) => send.status === null)
    return { verdict: 'pass', detail: unanswered ? `not accepted, but gave ${statuses}; answer 401 instead` : null }
  }
  const crashed = sends.find((send) => send.status === null || send.status >= 500)
  if (crashed) return { verdict: 'fail', detail: `${statuses}: events can arrive out of order; handle a late event without failing` }
  return { verdict: 'pass', detail: null }
}

function responseTime(cases: CaseResult[]): ResponseTimeResult {
  let slowest: ResponseTimeResult['slowest'] = null
  let timedOut = 0
  for (const result of cases) {
    for (const sent of result.sends) {
      if (sent.status === null) {
        if (sent.error?.startsWith('no answer within')) timedOut++
        continue
      }
      if (!slowest || sent.durationMs > slowest.durationMs) slowest = { caseId: result.id, durationMs: sent.durationMs }
    }
  }
  const withinBudget = timedOut === 0 && (slowest === null || slowest.durationMs <= RESPONSE_BUDGET_MS)
  return { budgetMs: RESPONSE_BUDGET_MS, slowest, timedOut, verdict: withinBudget ? 'pass' : 'fail' }
}

/** Sends the whole battery, one delivery at a time, and grades every answer. Never throws for a receiver's behaviour. */
export async function gradeReceiver(options: GradingOptions): Promise<GradingReport> {
  const timeoutMs = options.timeoutMs ?? RESPONSE_BUDGET_MS
  const target = { url: options.url, userAgent: options.userAgent ?? 'paybox-webhooks-test-receiver', timeoutMs, fetch: options.fetch }
  const cases: CaseResult[] = []
  for (const spec of battery(options.secret, (options.now ?? Date.now)())) {
    const sends: SendResult[] = []
    for (const delivery of spec.deliveries) sends.push(await postWebhook({ ...target, ...delivery }))
    cases.push({ id: spec.id, title: spec.title, expectation: spec.expectation, expected: spec.expected, sends, ...judge(spec, sends) })
  }
  const time = responseTime(cases)
  return {
    url: options.url,
    timeoutMs,
    cases,
    responseTime: time,
    deduplication: DEDUPLICATION_RULE,
    passed: time.verdict === 'pass' && cases.every((result) => result.verdict === 'pass'),
  }
}
