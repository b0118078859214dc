// Webhooks end to end against a real receiver: signed delivery of every payment event, in
// order; failures recorded and not retried; the delivery log byte for byte; resend after a
// secret rotation; pause; the live streams; and pending deliveries surviving a restart.
import { beforeAll, describe, expect, it } from 'vitest'
import type { Payment, WebhookDelivery } from '../../src/client/types.js'
import { PayboxClient } from '../../src/client/paybox-client.js'
import { verifyWebhook } from '../../src/signing.js'
import { sandboxForSuite, startTestSandbox, temporaryDir } from '../../harness/sandbox.js'
import { refusal } from '../../harness/refusal.js'
import { openEventStream } from '../../harness/sse.js'
import { waitFor } from '../../harness/wait.js'
import { receivedFor, startWebhookReceiver, webhookData, webhookReceiverForSuite } from '../../harness/webhook-receiver.js'
import path from 'node:path'

type LogEntry = WebhookDelivery

// Long enough that a loaded machine never times out a receiver that does answer.
const TIMEOUT_MS = 1500

describe('webhooks', () => {
  const sandbox = sandboxForSuite({ webhookTimeoutMs: TIMEOUT_MS, webhookPollMs: 20 })
  const receiver = webhookReceiverForSuite(() => sandbox.merchants[0]!.apiSecret)
  let merchantId: string
  const logs = (query: Record<string, string | number> = {}) =>
    sandbox.direct.request<{ items: LogEntry[]; meta: { totalItems: number } }>('GET', `/merchants/${merchantId}/webhook-logs`, { query })
  const entry = (id: string) => sandbox.direct.request<LogEntry>('GET', `/merchants/${merchantId}/webhook-logs/${id}`)
  const finishedLogsOf = async (paymentId: string, count: number) =>
    waitFor(`${count} finished deliveries of ${paymentId}`, async () => {
      const { items } = await logs({ checkout_id: paymentId, limit: 100 })
      return items.length >= count && items.every((item) => item.status !== 'pending') ? items.reverse() : undefined
    })
  /** A payment reporting to the receiver, or (null) to no webhook URL at all. */
  const create = (webhookUrl: string | null = receiver.url) =>
    sandbox.direct.payments.create({
      amount: { value: 1000, currency: 'USD' },
      description: 'Webhooked',
      webhookUrl: webhookUrl ?? undefined,
    })
  const pay = (id: string, body: Record<string, unknown> = {}) =>
    sandbox.direct.request<Payment>('POST', `/sandbox/payments/${id}/pay`, { body })

  beforeAll(() => {
    merchantId = sandbox.merchants[0]!.id
  })

  describe('delivery', () => {
    it('POSTs transaction_created, signed over the exact bytes, and logs exactly what was sent', async () => {
      const payment = await create()
      const [delivered] = await waitFor('the created event', () =>
        receivedFor(receiver, payment.id).length > 0 ? receivedFor(receiver, payment.id) : undefined,
      )
      expect(delivered!.verified).toBe(true)
      expect(delivered!.headers['content-type']).toBe('application/json')
      expect(delivered!.headers['user-agent']).toMatch(/^paybox-sandbox-webhooks\//)
      expect(delivered!.headers['x-webhook-auth']).toMatch(/^[0-9a-f]{64}$/)
      const data = webhookData(delivered!.raw)
      expect(Object.keys(data).sort()).toEqual(
        [
          'type',
          'id',
          'status',
          'settlement_status',
          'amount',
          'settlement_amount',
          'settlement_currency',
          'settlement_fee',
          'amount_paid',
          'amount_received',
          'amount_remaining',
          'history',
          'metadata',
        ].sort(),
      )
      expect(data).toMatchObject({
        type: 'transaction_created',
        id: payment.id,
        status: 'open',
        settlement_status: 'open',
        amount: { value: 1000, currency: 'USD' },
        amount_paid: 0,
        amount_received: 0,
        amount_remaining: 10,
        settlement_currency: 'USDC',
        metadata: {},
      })

      const [logged] = await finishedLogsOf(payment.id, 1)
      expect(logged).toMatchObject({
        merchant_id: merchantId,
        checkout_id: payment.id,
        event_type: 'transaction_created',
        url: receiver.url,
        status: 'success',
        http_status: 200,
        error_message: null,
        attempt_count: 1,
        resend_of: null,
      })
      expect(logged!.id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-5[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/)
      expect(logged).not.toHaveProperty('request_payload')
      const full = await entry(logged!.id)
      expect(Buffer.from(full.request_payload!, 'utf8').equals(delivered!.raw)).toBe(true)
      expect(full.response_body).toBe('ok')
      expect(full.duration_ms).toBeGreaterThanOrEqual(0)
    })

    it('sends bodies a re-serializer cannot reproduce: a receiver verifying JSON.stringify(JSON.parse(raw)) fails, one verifying the raw bytes passes', async () => {
      const secret = sandbox.merchants[0]!.apiSecret
      const signatureOf = (r: { headers: Record<string, unknown> }) => r.headers['x-webhook-auth'] as string
      // The mistake of spec 5: the body parsed by a framework, then serialized again to be verified.
      const reserializing = await startWebhookReceiver(secret)
      reserializing.answer = (r) =>
        verifyWebhook(JSON.stringify(JSON.parse(r.raw.toString('utf8'))), signatureOf(r), secret) ? { status: 200 } : { status: 401 }
      const raw = await startWebhookReceiver(secret)
      raw.answer = (r) => (verifyWebhook(r.raw, signatureOf(r), secret) ? { status: 200 } : { status: 401 })
      try {
        const wrong = await create(reserializing.url)
        const right = await create(raw.url)
        const [refused] = await finishedLogsOf(wrong.id, 1)
        const [accepted] = await finishedLogsOf(right.id, 1)
        expect(refused).toMatchObject({ status: 'failed', http_status: 401 })
        expect(accepted).toMatchObject({ status: 'success', http_status: 200 })
        const body = raw.received[0]!.raw.toString('utf8')
        expect(body.startsWith('{\n  "data": {\n    "type": "transaction_created",\n')).toBe(true)
        expect(JSON.stringify(JSON.parse(body))).not.toBe(body)
      } finally {
        await reserializing.close()
        await raw.close()
      }
    })

    it('delivers created → underpaid → paid → settlement processing → settled in order', async () => {
      const payment = await create()
      await pay(payment.id, { amount: 400 })
      await pay(payment.id)
      const entries = await finishedLogsOf(payment.id, 5)
      const sent = receivedFor(receiver, payment.id).map((r) => webhookData(r.raw))
      expect(sent.map((d) => `${d.type}:${d.status}/${d.settlement_status}`)).toEqual([
        'transaction_created:open/open',
        'transaction_updated:underpaid/open',
        'transaction_updated:paid/open',
        'transaction_updated:paid/processing',
        'transaction_updated:paid/paid',
      ])
      expect(entries.map((e) => e.event_type)).toEqual(sent.map((d) => d.type))
      expect(sent[1]).toMatchObject({ amount_paid: 400, amount_received: 4, amount_remaining: 6 })
      expect(sent[4]).toMatchObject({
        amount_paid: 1000,
        amount_received: 10,
        amount_remaining: 0,
        settlement_amount: 9.9,
        settlement_fee: 0.1,
      })
    })

    it('sends transaction_failed on a processing failure, and updates on expiry', async () => {
      const failed = await create()
      await sandbox.direct.request('POST', `/sandbox/payments/${failed.id}/fail`)
      const expired = await create()
      await sandbox.direct.request('POST', `/sandbox/payments/${expired.id}/expire`)
      expect((await finishedLogsOf(failed.id, 2)).map((e) => e.event_type)).toEqual(['transaction_created', 'transaction_failed'])
      // Payments' deliveries go in parallel: the other payment's may finish a moment later.
      await finishedLogsOf(expired.id, 2)
      expect(webhookData(receivedFor(receiver, expired.id).at(-1)!.raw)).toMatchObject({ type: 'transaction_updated', status: 'expired' })
    })

    it('logs nothing for a payment without webhookUrl', async () => {
      const payment = await create(null)
      await pay(payment.id)
      const marker = await create()
      await finishedLogsOf(marker.id, 1) // a delivery is queued in the same transaction as the change that causes it, so the earlier payment's would be logged by now
      expect((await logs({ checkout_id: payment.id })).meta.totalItems).toBe(0)
    })
  })

  describe('failures are recorded, never retried, and never hold up the API', () => {
    it('records a non-2xx answer with its status and body', async () => {
      receiver.answer = () => ({ status: 500, body: 'receiver exploded' })
      const payment = await create()
      const [logged] = await finishedLogsOf(payment.id, 1)
      expect(logged).toMatchObject({ status: 'failed', http_status: 500, error_message: 'The receiver answered HTTP 500' })
      expect((await entry(logged!.id)).response_body).toBe('receiver exploded')
    })

    it("logs a NUL in the receiver's answer as U+FFFD, on both backends", async () => {
      receiver.answer = () => ({ status: 200, body: 'before\0after' })
      const payment = await create()
      const [logged] = await finishedLogsOf(payment.id, 1)
      expect(logged).toMatchObject({ status: 'success', http_status: 200 })
      expect((await entry(logged!.id)).response_body).toBe('before\uFFFDafter')
    })

    it('fails a receiver that does not answer in time, while the API answers at once', async () => {
      receiver.answer = () => 'hang'
      const payment = await create()
      // The API answered although the receiver is hanging on the created event.
      const paid = await pay(payment.id)
      expect(paid.status).toBe('paid')
      const entries = await finishedLogsOf(payment.id, 4)
      expect(entries[0]).toMatchObject({
        status: 'failed',
        http_status: null,
        error_message: `No answer within ${TIMEOUT_MS / 1000} s (timed out)`,
      })
      expect(entries[0]!.duration_ms).toBeGreaterThanOrEqual(TIMEOUT_MS - 5)
    })

    it('records a refused connection and does not retry', async () => {
      const closed = await startWebhookReceiver('unused')
      const url = closed.url
      await closed.close()
      const payment = await create(url)
      const [logged] = await finishedLogsOf(payment.id, 1)
      expect(logged).toMatchObject({ status: 'failed', http_status: null, attempt_count: 1 })
      expect(logged!.error_message).toContain('ECONNREFUSED')
      // Later events are still sent; the failed one is not sent again.
      await pay(payment.id)
      const all = await finishedLogsOf(payment.id, 4)
      expect(all.filter((e) => e.event_type === 'transaction_created')).toHaveLength(1)
      expect(all.map((e) => e.attempt_count)).toEqual([1, 1, 1, 1])
    })
  })

  describe('the log', () => {
    it('filters by status and checkout_id, newest first, and pages', async () => {
      const failed = await logs({ status: 'failed', limit: 100 })
      expect(failed.items.length).toBeGreaterThan(0)
      expect(failed.items.every((e) => e.status === 'failed')).toBe(true)
      const page = await logs({ limit: 2, page: 2 })
      expect(page.meta).toMatchObject({ itemsPerPage: 2, currentPage: 2 })
      const all = (await logs({ limit: 100 })).items
      expect(all.map((e) => e.created_at)).toEqual([...all.map((e) => e.created_at)].sort().reverse())
    })

    it("is the authenticated merchant's only: another merchant id or an unknown entry is 404", async () => {
      const [any] = (await logs({ limit: 1 })).items
      const escrowId = sandbox.merchants[1]!.id
      expect((await refusal(sandbox.direct.request('GET', `/merchants/${escrowId}/webhook-logs`))).statusCode).toBe(404)
      expect((await refusal(sandbox.escrow.request('GET', `/merchants/${merchantId}/webhook-logs/${any!.id}`))).statusCode).toBe(404)
      expect((await refusal(sandbox.escrow.request('GET', `/merchants/${escrowId}/webhook-logs/${any!.id}`))).statusCode).toBe(404)
      expect((await refusal(entry('00000000-0000-5000-8000-000000000000'))).statusCode).toBe(404)
      expect((await refusal(logs({ status: 'lost' }))).statusCode).toBe(400)
    })
  })

  describe('resend', () => {
    it('replays the stored payload byte for byte, signed with the secret current after a rotation', async () => {
      const payment = await create()
      const [original] = await finishedLogsOf(payment.id, 1)
      const rotated = await sandbox.admin.request<{ apiSecret: string }>('POST', `/sandbox/merchants/${merchantId}/rotate-secret`, {
        auth: 'admin',
      })
      expect(rotated.apiSecret).not.toBe(sandbox.merchants[0]!.apiSecret)
      const client = new (sandbox.direct.constructor as typeof import('../../src/client/paybox-client.js').PayboxClient)({
        baseUrl: sandbox.url,
        apiKey: sandbox.merchants[0]!.apiKey,
        apiSecret: rotated.apiSecret,
      })
      const oldSecret = receiver.secret
      receiver.secret = rotated.apiSecret
      try {
        const before = receivedFor(receiver, payment.id).length
        const resent = await client.request<LogEntry>('POST', `/merchants/${merchantId}/webhook-logs/${original!.id}/resend`)
        expect(resent).toMatchObject({ status: 'success', resend_of: original!.id, attempt_count: 2, checkout_id: payment.id })
        expect(resent.id).not.toBe(original!.id)
        const replay = receivedFor(receiver, payment.id)[before]!
        expect(replay.verified).toBe(true)
        expect(replay.raw.toString('utf8')).toBe(
          (await client.request<LogEntry>('GET', `/merchants/${merchantId}/webhook-logs/${original!.id}`)).request_payload,
        )
        expect(resent.request_payload).toBe(replay.raw.toString('utf8'))
        // Signed with the new secret only: the old one does not verify it.
        expect(verifyWebhook(replay.raw, replay.headers['x-webhook-auth'] as string, oldSecret)).toBe(false)
        expect((await refusal(sandbox.direct.request('GET', `/merchants/${merchantId}/webhook-logs`))).statusCode).toBe(401)
      } finally {
        receiver.secret = oldSecret
        await sandbox.admin.request('POST', `/sandbox/merchants/${merchantId}/rotate-secret`, { auth: 'admin' })
      }
    })
  })
})

describe('resend rate limit', () => {
  const sandbox = sandboxForSuite({ webhookPollMs: 20 })
  const receiver = webhookReceiverForSuite(() => sandbox.merchants[0]!.apiSecret)

  it('allows 10 resends a minute per merchant and answers the 11th 429 with Retry-After', async () => {
    const merchantId = sandbox.merchants[0]!.id
    const payment = await sandbox.direct.payments.create({
      amount: { value: 100, currency: 'USD' },
      description: 'Resent',
      webhookUrl: receiver.url,
    })
    const logged = await waitFor('the delivery', async () => {
      const { items } = await sandbox.direct.request<{ items: LogEntry[] }>('GET', `/merchants/${merchantId}/webhook-logs`, {
        query: { checkout_id: payment.id },
      })
      return items[0]?.status === 'success' ? items[0] : undefined
    })
    const resend = () => sandbox.direct.request<LogEntry>('POST', `/merchants/${merchantId}/webhook-logs/${logged.id}/resend`)
    for (let i = 0; i < 10; i++) expect((await resend()).status).toBe('success')
    const error = await refusal(resend())
    expect(error).toMatchObject({ statusCode: 429, reason: 'Too Many Requests' })
    // The client reads the Retry-After header: whole seconds until the oldest resend leaves the minute.
    expect(error.retryAfterSeconds).toBeGreaterThanOrEqual(1)
    expect(error.retryAfterSeconds).toBeLessThanOrEqual(60)
    const raw = await fetch(`${sandbox.url}/merchants/${merchantId}/webhook-logs/${logged.id}/resend`, { method: 'POST' })
    expect(raw.status).toBe(401) // unsigned requests are refused before the limit is consulted
    expect(receiver.received).toHaveLength(11)
    // The limit is per merchant: the other merchant is unaffected (its unknown id is a 404, not a 429).
    const escrowId = sandbox.merchants[1]!.id
    expect((await refusal(sandbox.escrow.request('POST', `/merchants/${escrowId}/webhook-logs/${logged.id}/resend`))).statusCode).toBe(404)
  })
})

describe('pause, https-only and restarts', () => {
  it('logs events as skipped while paused, sends again after resume', async () => {
    const sandbox = await startTestSandbox({ webhookPollMs: 20 })
    const receiver = await startWebhookReceiver(sandbox.merchants[0]!.apiSecret)
    try {
      const merchantId = sandbox.merchants[0]!.id
      expect(await sandbox.direct.request('POST', `/merchants/${merchantId}/webhooks/pause`)).toEqual({
        merchant_id: merchantId,
        webhooks_paused: true,
      })
      const paused = await sandbox.direct.payments.create({
        amount: { value: 100, currency: 'USD' },
        description: 'Paused',
        webhookUrl: receiver.url,
      })
      const skipped = await waitFor('the skipped entry', async () => {
        const { items } = await sandbox.direct.request<{ items: LogEntry[] }>('GET', `/merchants/${merchantId}/webhook-logs`, {
          query: { checkout_id: paused.id },
        })
        return items[0]?.status === 'skipped' ? items[0] : undefined
      })
      expect(skipped).toMatchObject({
        http_status: null,
        error_message: 'Not sent: webhooks are paused for this merchant',
        last_attempt_at: null,
      })
      expect(receiver.received).toHaveLength(0)

      await sandbox.direct.request('POST', `/merchants/${merchantId}/webhooks/resume`)
      const resumed = await sandbox.direct.payments.create({
        amount: { value: 100, currency: 'USD' },
        description: 'Resumed',
        webhookUrl: receiver.url,
      })
      await waitFor('the delivery after resume', () => receiver.received.length === 1)
      expect(JSON.parse(receiver.received[0]!.raw.toString()).data.id).toBe(resumed.id)
    } finally {
      await sandbox.stop()
      await receiver.close()
    }
  })

  it('skips plain-http URLs when the sandbox requires https', async () => {
    const sandbox = await startTestSandbox({ webhookPollMs: 20, requireHttps: true })
    try {
      const merchantId = sandbox.merchants[0]!.id
      const payment = await sandbox.direct.payments.create({
        amount: { value: 100, currency: 'USD' },
        description: 'Plain',
        webhookUrl: 'http://127.0.0.1:9/hook',
      })
      const skipped = await waitFor('the skipped entry', async () => {
        const { items } = await sandbox.direct.request<{ items: LogEntry[] }>('GET', `/merchants/${merchantId}/webhook-logs`, {
          query: { checkout_id: payment.id },
        })
        return items[0]?.status === 'skipped' ? items[0] : undefined
      })
      expect(skipped.error_message).toBe('Not sent: the sandbox runs with --require-https and the URL is http')
    } finally {
      await sandbox.stop()
    }
  })

  it('sends deliveries still pending at shutdown after the next start', async () => {
    const db = path.join(temporaryDir(), 'restart.db')
    // In the first run the receiver never answers: the first delivery is on the wire at shutdown,
    // the other three wait behind it (one payment's deliveries go in order), and all stay pending.
    const first = await startTestSandbox({ db, webhookPollMs: 3_600_000 })
    const receiver = await startWebhookReceiver(first.merchants[0]!.apiSecret)
    receiver.answer = () => 'hang'
    try {
      const payment = await first.direct.payments.create({
        amount: { value: 100, currency: 'USD' },
        description: 'Pending',
        webhookUrl: receiver.url,
      })
      await first.direct.request('POST', `/sandbox/payments/${payment.id}/pay`, { body: {} })
      const merchantId = first.merchants[0]!.id
      const pending = await first.direct.request<{ items: LogEntry[] }>('GET', `/merchants/${merchantId}/webhook-logs`, {
        query: { status: 'pending' },
      })
      expect(pending.items).toHaveLength(4)
      await first.stop()
      expect(receiver.received).toHaveLength(1)
      receiver.received.length = 0
      receiver.answer = () => ({ status: 200, body: 'ok' })

      const second = await startTestSandbox({ db, webhookPollMs: 20 })
      try {
        await waitFor('the four pending deliveries', () => receiver.received.length === 4)
        expect(
          receiver.received.map(
            (r) => JSON.parse(r.raw.toString()).data.status + '/' + JSON.parse(r.raw.toString()).data.settlement_status,
          ),
        ).toEqual(['open/open', 'paid/open', 'paid/processing', 'paid/paid'])
        expect(receiver.received.every((r) => r.verified)).toBe(true)
      } finally {
        await second.stop()
      }
    } finally {
      await receiver.close()
    }
  })
})

describe('live streams', () => {
  it('streams finished deliveries and every payment event, resuming after Last-Event-ID', async () => {
    const sandbox = await startTestSandbox({ webhookPollMs: 20 })
    const receiver = await startWebhookReceiver(sandbox.merchants[0]!.apiSecret)
    const streams: AbortController[] = []
    const open = async (pathAndQuery: string, headers: Record<string, string> = {}) => {
      const controller = new AbortController()
      streams.push(controller)
      return openEventStream(sandbox.url, sandbox.merchants[0]!, pathAndQuery, { headers, signal: controller.signal })
    }
    try {
      const merchantId = sandbox.merchants[0]!.id
      const deliveries = await open(`/merchants/${merchantId}/webhook-logs/stream`)
      const events = await open(`/merchants/${merchantId}/events/stream`)
      const withUrl = await sandbox.direct.payments.create({
        amount: { value: 100, currency: 'USD' },
        description: 'Streamed',
        webhookUrl: receiver.url,
      })
      const withoutUrl = await sandbox.direct.payments.create({ amount: { value: 100, currency: 'USD' }, description: 'No URL' })

      const delivery = await waitFor('a delivery on the stream', () => deliveries.received.find((e) => e.event === 'delivery'))
      expect(JSON.parse(delivery.data)).toMatchObject({
        checkout_id: withUrl.id,
        status: 'success',
        http_status: 200,
        request_payload: expect.any(String),
      })
      const both = await waitFor('two payment events', () => {
        const received = events.received.filter((e) => e.event === 'payment_event')
        return received.length >= 2 ? received : undefined
      })
      expect(both.map((e) => [e.event, JSON.parse(e.data).checkout_id])).toEqual([
        ['payment_event', withUrl.id],
        ['payment_event', withoutUrl.id],
      ])
      const firstId = both[0]!.id!

      // A fresh stream announces where it starts: the latest sequence, to resume from.
      const fresh = await open(`/merchants/${merchantId}/events/stream`)
      const ready = await waitFor('the ready event', () => fresh.received.find((e) => e.event === 'ready'))
      expect(JSON.parse(ready.data)).toEqual({ sequence: Number(both[1]!.id) })
      expect(ready.id).toBe(both[1]!.id)

      // Resuming after the first event replays exactly the second.
      const resumed = await open(`/merchants/${merchantId}/events/stream`, { 'last-event-id': firstId })
      const replayed = await waitFor('the replayed event', () => resumed.received[0])
      expect(JSON.parse(replayed.data)).toMatchObject({ checkout_id: withoutUrl.id, event_type: 'transaction_created' })
      expect(JSON.parse(JSON.parse(replayed.data).payload).data.id).toBe(withoutUrl.id)
      // Stopping the sandbox ends open streams properly (a clean end of the response), rather than
      // leaving them to be cut off when the shutdown grace period runs out.
      const ended = new Promise<boolean>((resolve) => deliveries.onEnd(resolve))
      await sandbox.stop()
      expect(await ended).toBe(true)
    } finally {
      for (const stream of streams) stream.abort()
      await sandbox.stop()
      await receiver.close()
    }
  })
})

describe("a tenant's resend limit", () => {
  const sandbox = sandboxForSuite({ webhookPollMs: 20 })
  let tenantSecret = ''
  const receiver = webhookReceiverForSuite(() => tenantSecret)

  it("counts the minute on the tenant's own clock: moving it 61 s frees a resend", async () => {
    const { merchant } = await sandbox.admin.sandbox.createTenant({ frozenAt: new Date(Date.UTC(2031, 0, 1)).toISOString() })
    tenantSecret = merchant.apiSecret
    const tenant = new PayboxClient({ baseUrl: sandbox.url, apiKey: merchant.apiKey, apiSecret: merchant.apiSecret })
    const payment = await tenant.payments.create({
      amount: { value: 100, currency: 'USD' },
      description: 'Resent',
      webhookUrl: receiver.url,
    })
    const logged = await waitFor('the delivery', async () => {
      const { items } = await tenant.webhooks.list({ checkout_id: payment.id })
      return items[0]?.status === 'success' ? items[0] : undefined
    })
    for (let i = 0; i < 10; i++) await tenant.webhooks.resend(logged.id)
    expect(await refusal(tenant.webhooks.resend(logged.id))).toMatchObject({ statusCode: 429 })
    // Its clock stands still: real time passing frees nothing; only its own minute passing does.
    await sandbox.admin.sandbox.advanceMerchantClock(merchant.id, { seconds: 61 })
    expect(await tenant.webhooks.resend(logged.id)).toMatchObject({ resend_of: logged.id })
  })
})
