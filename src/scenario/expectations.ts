// The expectation steps. Each checks what the sandbox says now (fetching again until a
// `within` deadline when given) and throws StepFailure saying what it found instead.
import { setTimeout as delay } from 'node:timers/promises'
import { isDeepStrictEqual } from 'node:util'
import ms from 'ms'
import type { WebhookDelivery } from '../client/types.js'
import { formatDecimalShort, parseDecimal, USDC_SCALE } from '../money.js'
import { formatPath, parsePath, valueAt } from './interpolate.js'
import { show, StepFailure, type ScenarioRuntime } from './runtime.js'
import type { StepArgs } from './schema.js'

const POLL_INTERVAL_MS = 100
/** How long expectWebhook waits by default: the sandbox's own delivery timeout. */
const DEFAULT_WEBHOOK_WITHIN = '10s'

/** Without `within`, one try; otherwise the last failure is the step's. */
async function eventually<T>(within: string | undefined, check: () => Promise<T>): Promise<T> {
  const deadline = Date.now() + (within === undefined ? 0 : ms(within as ms.StringValue))
  for (;;) {
    try {
      return await check()
    } catch (error) {
      if (!(error instanceof StepFailure) || Date.now() >= deadline) {
        if (error instanceof StepFailure && within !== undefined) throw new StepFailure(`${error.message} (still after ${within})`)
        throw error
      }
    }
    await delay(POLL_INTERVAL_MS)
  }
}

export async function expectValue(args: StepArgs<'expect'>, runtime: ScenarioRuntime): Promise<unknown> {
  const path = args.field === undefined ? [] : parsePath(args.field)
  if (!path) throw new StepFailure(`field "${args.field}" is not a path such as status, amount.value or history[0].status`)
  const fetched = args.value === undefined && args.step === undefined
  if (args.within !== undefined && !fetched)
    throw new StepFailure('within applies only to a fetched payment, invoice, refund or escrowOrder')
  return eventually(args.within, async () => {
    const subject = await subjectOf(args, runtime)
    const actual = path.length === 0 ? subject : valueAt(subject, path)
    const what = path.length === 0 ? 'the value' : formatPath(path)
    const problem = mismatch(actual, args)
    if (problem) throw new StepFailure(`${what} was ${show(actual)}, ${problem}`)
    return actual
  })
}

function subjectOf(args: StepArgs<'expect'>, { client, results }: ScenarioRuntime): Promise<unknown> | unknown {
  if (args.payment !== undefined) return client.payments.get(args.payment)
  if (args.invoice !== undefined) return client.invoices.get(args.invoice)
  if (args.refund !== undefined) return client.refunds.get(args.refund)
  if (args.escrowOrder !== undefined) return client.escrow.status(args.escrowOrder)
  if (args.step !== undefined) return results[args.step]
  return args.value
}

/** Why `actual` fails the step's matcher, or undefined when it passes. */
function mismatch(
  actual: unknown,
  args: { equals?: unknown; notEquals?: unknown; oneOf?: unknown[]; matches?: string },
): string | undefined {
  if ('equals' in args) return isDeepStrictEqual(actual, args.equals) ? undefined : `expected ${show(args.equals)}`
  if ('notEquals' in args) return isDeepStrictEqual(actual, args.notEquals) ? `expected anything but that` : undefined
  if (args.oneOf !== undefined)
    return args.oneOf.some((option) => isDeepStrictEqual(actual, option)) ? undefined : `expected one of ${show(args.oneOf)}`
  if (args.matches !== undefined) {
    let pattern: RegExp
    try {
      pattern = new RegExp(args.matches)
    } catch {
      throw new StepFailure(`matches: /${args.matches}/ is not a valid regular expression`)
    }
    const text = typeof actual === 'string' ? actual : JSON.stringify(actual)
    return pattern.test(text ?? '') ? undefined : `expected to match /${args.matches}/`
  }
  return undefined
}

export interface WebhookExpectationResult {
  delivery: Omit<WebhookDelivery, 'request_payload' | 'response_body'>
  /** The payload's data, parsed. */
  data: Record<string, unknown>
  /** Whether the scenario's receiver got these exact bytes with a valid signature. */
  received: boolean
}

export async function expectWebhook(args: StepArgs<'expectWebhook'>, runtime: ScenarioRuntime): Promise<WebhookExpectationResult> {
  const { client, receiver } = runtime
  const wanted = args.deliveryStatus ?? 'success'
  // Payloads are read once per delivery: a finished delivery never changes.
  const payloads = new Map<string, { text: string | undefined; data: Record<string, unknown> }>()
  const within = args.within ?? DEFAULT_WEBHOOK_WITHIN
  let seen: string[] = []
  try {
    return await eventually(within, async () => {
      const { items } = await client.webhooks.list({ checkout_id: args.payment, limit: 100 })
      seen = []
      // Oldest first, so the first match is the earliest delivery of that event.
      for (const delivery of items.reverse()) {
        const data = delivery.status === 'pending' ? undefined : await payloadOf(delivery.id)
        seen.push(
          `${delivery.event_type} ${String(data?.status ?? '?')}/${String(data?.settlement_status ?? '?')} ${delivery.status}${delivery.http_status ? ` (HTTP ${delivery.http_status})` : ''}`,
        )
        if (data === undefined || !matchesDelivery(delivery, data)) continue
        const received = receiver !== undefined && delivery.url === receiver.url ? receivedExactly(delivery.id) : false
        return { delivery, data, received }
      }
      throw new StepFailure(`no matching delivery`)
    })
  } catch (error) {
    if (!(error instanceof StepFailure) || error.message.startsWith('the receiver')) throw error
    const deliveries = seen.length === 0 ? 'it has none' : `its deliveries: ${seen.join('; ')}`
    throw new StepFailure(`no ${describeWanted(args, wanted)} for ${args.payment} within ${within}; ${deliveries}`)
  }

  function matchesDelivery(delivery: WebhookDelivery, data: Record<string, unknown>): boolean {
    return (
      delivery.status === wanted &&
      (args.event === undefined || delivery.event_type === args.event) &&
      (args.url === undefined || delivery.url === args.url) &&
      (args.status === undefined || data.status === args.status) &&
      (args.settlementStatus === undefined || data.settlement_status === args.settlementStatus)
    )
  }

  async function payloadOf(id: string): Promise<Record<string, unknown>> {
    let payload = payloads.get(id)
    if (payload === undefined) {
      const text = (await client.webhooks.get(id)).request_payload
      const data = ((JSON.parse(text ?? '{}') as { data?: Record<string, unknown> }).data ?? {}) as Record<string, unknown>
      payload = { text, data }
      payloads.set(id, payload)
    }
    return payload.data
  }

  // The log says success only after the receiver answered: by then it has the request.
  function receivedExactly(id: string): boolean {
    const payload = payloads.get(id)!.text
    const got = receiver!.received.filter((request) => request.body === payload)
    if (got.length === 0) throw new StepFailure(`the receiver never got the body of delivery ${id}`)
    if (!got.some((request) => request.verified))
      throw new StepFailure(`the receiver got delivery ${id} but its X-WEBHOOK-AUTH did not verify with the merchant's secret`)
    return true
  }
}

function describeWanted(args: StepArgs<'expectWebhook'>, wanted: string): string {
  const states = [args.status, args.settlementStatus && `settlement ${args.settlementStatus}`].filter(Boolean).join(', ')
  const event = args.event ?? 'webhook'
  return `${event}${states ? ` (${states})` : ''} delivery ${wanted === 'success' ? 'succeeded' : `ended ${wanted}`}${args.url ? ` to ${args.url}` : ''}`
}

export async function expectInvoiceNumber(args: StepArgs<'expectInvoiceNumber'>, { client }: ScenarioRuntime): Promise<string> {
  const number = (await client.invoices.get(args.invoice)).invoice_number
  const problem = mismatch(number, args.equals === undefined ? { matches: args.matches } : { equals: args.equals })
  if (problem) throw new StepFailure(`invoice_number was ${show(number)}, ${problem}`)
  return number
}

/** The asset of an expectBalance step, as GET /accounts/balances/{asset} names it. */
export const balanceAsset = (args: StepArgs<'expectBalance'>): string => args.asset ?? 'USDC'

export async function readBalance(runtime: ScenarioRuntime, asset: string): Promise<string> {
  return (await runtime.client.balances.get(asset)).balance
}

export async function expectBalance(args: StepArgs<'expectBalance'>, runtime: ScenarioRuntime): Promise<string> {
  const asset = balanceAsset(args)
  const expected = stroopsOf(args.equals ?? args.changedBy!, args.equals !== undefined ? 'equals' : 'changedBy')
  return eventually(args.within, async () => {
    const balance = await readBalance(runtime, asset)
    const now = stroopsOf(balance, 'balance')
    if (args.equals !== undefined) {
      if (now !== expected) throw new StepFailure(`${asset} balance was ${balance}, expected ${formatDecimalShort(expected, USDC_SCALE)}`)
      return balance
    }
    const start = runtime.startBalances.get(asset)!
    const change = now - stroopsOf(start, 'balance')
    if (change !== expected) {
      throw new StepFailure(
        `${asset} balance changed by ${formatDecimalShort(change, USDC_SCALE)} (${start} → ${balance}), expected ${formatDecimalShort(expected, USDC_SCALE)}`,
      )
    }
    return balance
  })
}

/** Balances are decimal text with 7 places (USDC and XLM alike); YAML may give a number. */
function stroopsOf(value: string | number, what: string): bigint {
  const text = typeof value === 'number' ? String(value) : value.trim()
  // changedBy may be negative; parseDecimal reads the digits (and refuses 1e-7 notation).
  const negative = text.startsWith('-')
  const stroops = parseDecimal(negative ? text.slice(1) : text, USDC_SCALE)
  if (stroops === undefined) throw new StepFailure(`${what}: "${value}" is not a decimal amount with at most 7 places`)
  return negative ? -stroops : stroops
}
