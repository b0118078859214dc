// Crash safety (issue 9): a real sandbox process on a database file takes concurrent writes
// (payments with idempotency keys and webhooks, invoices, ledger payments) and is killed with
// SIGKILL after a seeded number of acknowledgements, with requests still in flight; then it is
// restarted on the same file. Three rounds on one file. Whatever was acknowledged must be there,
// idempotency keys must replay, invoice numbers stay gapless, the ledger conserves money, and
// webhook deliveries left pending by the crash are delivered after the restart.
import path from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { Rng } from '../helpers/hostile.js'
import { temporaryDir } from '../helpers/sandbox.js'
import { spawnSandbox, type SandboxProcess } from '../helpers/sandbox-process.js'
import { waitFor } from '../helpers/wait.js'
import { startWebhookReceiver, type WebhookReceiver } from '../helpers/webhook-receiver.js'
import { inspectDatabaseFile, listInvoices, numberingProblems, paymentsByKey, signed, type Merchant } from './sandbox-checks.js'

const SEED = 0xc7a5_4009
const ROUNDS = 3
const WORKERS = 6
const OPS_PER_ROUND = 120

type Op =
  | { kind: 'payment'; key: string; body: Record<string, unknown> }
  | { kind: 'invoice'; body: Record<string, unknown> }
  /** Pays the payment of the op at `index` of this round, if it was acknowledged by then. */
  | { kind: 'pay'; index: number }

/** The round's writes, decided by the seed alone; which of them are acknowledged depends on the kill. */
function planRound(rng: Rng, round: number, webhookUrl: string): Op[] {
  const ops: Op[] = []
  for (let i = 0; i < OPS_PER_ROUND; i++) {
    const roll = rng.float()
    const paymentOps = ops.flatMap((op, index) => (op.kind === 'payment' ? [index] : []))
    if (roll < 0.45 || paymentOps.length === 0) {
      const key = `crash-r${round}-${i}-${rng.hex(6)}`
      const body: Record<string, unknown> = { amount: { value: rng.int(100, 50_000), currency: 'USD' }, description: `Crash round ${round} op ${i}`, metadata: { key } }
      if (rng.chance(0.6)) body.webhookUrl = webhookUrl
      ops.push({ kind: 'payment', key, body })
    } else if (roll < 0.75) {
      ops.push({ kind: 'invoice', body: { currency: 'EUR', line_items: [{ description: `Item ${i}`, quantity: rng.int(1, 5), unit_price: rng.int(100, 9_999) }], customer: { email: `c${i}@example.com` } } })
    } else {
      ops.push({ kind: 'pay', index: rng.pick(paymentOps) })
    }
  }
  return ops
}

interface Acknowledged {
  /** Idempotency key → the request body and the response text it was acknowledged with. */
  payments: Map<string, { body: Record<string, unknown>; response: string; id: string }>
  /** Keys sent but never acknowledged (in flight at the kill). */
  unacknowledgedKeys: Map<string, Record<string, unknown>>
  /** Invoice id → number. */
  invoices: Map<string, string>
  /** Payments acknowledged as paid. */
  paid: Set<string>
}

describe('crash safety: SIGKILL at a seeded moment loses nothing acknowledged', () => {
  const running: SandboxProcess[] = []
  let receiver: WebhookReceiver | undefined
  afterAll(async () => {
    for (const sandbox of running) await sandbox.stop('SIGKILL')
    await receiver?.close()
  })

  async function start(dbFile: string): Promise<{ sandbox: SandboxProcess; url: string; merchant: Merchant }> {
    const sandbox = await spawnSandbox(['--port', '0', '--db', dbFile, '--ledger-close', 'instant'])
    running.push(sandbox)
    return { sandbox, url: sandbox.banner.baseUrl, merchant: sandbox.banner.merchants.find((m) => m.settlement_mode === 'direct')! }
  }

  /** Everything acknowledged so far is there, keys replay, numbering and the outbox are whole. */
  async function verify(url: string, merchant: Merchant, acked: Acknowledged): Promise<void> {
    for (const [key, { body, response, id }] of acked.payments) {
      const replay = await signed(url, merchant, 'POST', '/payments', body, { 'idempotency-key': key })
      expect(replay.status, `replay of ${key}`).toBe(200)
      expect(replay.text, `replay of ${key}`).toBe(response)
      const now = await signed(url, merchant, 'GET', `/payments/${id}`)
      expect(now.status, `payment ${id}`).toBe(200)
      if (acked.paid.has(id)) expect((now.json as { status: string }).status, `paid payment ${id}`).toBe('paid')
    }
    // A key whose request was cut off made its payment or not; a retry now makes it exactly once.
    for (const [key, body] of acked.unacknowledgedKeys) {
      const first = await signed(url, merchant, 'POST', '/payments', body, { 'idempotency-key': key })
      const second = await signed(url, merchant, 'POST', '/payments', body, { 'idempotency-key': key })
      expect(first.status, `retry of ${key}: ${first.text.slice(0, 200)}`).toBe(200)
      expect(second.text).toBe(first.text)
      acked.payments.set(key, { body, response: first.text, id: (first.json as { id: string }).id })
    }
    acked.unacknowledgedKeys.clear()
    const byKey = await paymentsByKey(url, merchant)
    for (const key of acked.payments.keys()) expect(byKey.get(key)?.length, `payments made with key ${key}`).toBe(1)
    for (const [key, payments] of byKey) expect(payments.length, `payments made with key ${key}`).toBe(1)

    const invoices = await listInvoices(url, merchant)
    expect(numberingProblems(invoices.map((invoice) => invoice.invoice_number))).toEqual([])
    const numbers = new Map(invoices.map((invoice) => [invoice.id, invoice.invoice_number]))
    for (const [id, number] of acked.invoices) expect(numbers.get(id), `invoice ${id}`).toBe(number)
  }

  it(`keeps every acknowledged write through ${ROUNDS} SIGKILLs, and delivers the webhooks the crash left pending`, async () => {
    const dbFile = path.join(temporaryDir('paybox-crash-'), 'sandbox.db')
    const rng = new Rng(SEED)
    receiver = await startWebhookReceiver('')
    const acked: Acknowledged = { payments: new Map(), unacknowledgedKeys: new Map(), invoices: new Map(), paid: new Set() }
    let pendingAtCrashes = 0
    let inFlightAtKills = 0

    for (let round = 1; round <= ROUNDS; round++) {
      const { sandbox, url, merchant } = await start(dbFile)
      receiver.secret = merchant.apiSecret
      receiver.answer = () => ({ status: 200, body: 'ok' })
      if (round > 1) await verify(url, merchant, acked)

      // Some receiver answers hang, so deliveries are still on the wire (pending) when the kill comes.
      const answers = new Rng(SEED + round)
      receiver.answer = () => (answers.chance(0.35) ? 'hang' : { status: 200, body: 'ok' })
      const ops = planRound(rng, round, receiver.url)
      const killAfter = rng.int(20, 60)
      const idOfOp = new Map<number, string>()
      let acknowledged = 0
      let killed = false
      const inFlight = new Set<number>()
      const acknowledge = () => {
        acknowledged++
        // Kill at once, from the callback of the acknowledgement, with other requests in flight.
        if (acknowledged === killAfter && !killed) {
          killed = true
          inFlightAtKills += inFlight.size - 1
          sandbox.process.child.kill('SIGKILL')
        }
      }
      let next = 0
      const worker = async () => {
        while (!killed && next < ops.length) {
          const index = next++
          const op = ops[index]!
          inFlight.add(index)
          try {
            if (op.kind === 'payment') {
              acked.unacknowledgedKeys.set(op.key, op.body)
              const response = await signed(url, merchant, 'POST', '/payments', op.body, { 'idempotency-key': op.key })
              expect(response.status, response.text).toBe(200)
              const id = (response.json as { id: string }).id
              acked.unacknowledgedKeys.delete(op.key)
              acked.payments.set(op.key, { body: op.body, response: response.text, id })
              idOfOp.set(index, id)
              acknowledge()
            } else if (op.kind === 'invoice') {
              const response = await signed(url, merchant, 'POST', '/invoices', op.body)
              expect(response.status, response.text).toBe(200)
              const invoice = response.json as { id: string; invoice_number: string }
              acked.invoices.set(invoice.id, invoice.invoice_number)
              acknowledge()
            } else {
              const id = idOfOp.get(op.index)
              if (id === undefined || acked.paid.has(id)) continue
              const response = await signed(url, merchant, 'POST', `/sandbox/payments/${id}/pay`, {})
              // Two pays of one payment may race: the second is refused as already paid.
              if (response.status === 409) continue
              expect(response.status, response.text).toBe(200)
              expect((response.json as { status: string }).status).toBe('paid')
              acked.paid.add(id)
              acknowledge()
            }
          } catch (error) {
            // Only the kill may cut a request off; anything else is a failure of the test.
            if (!killed) throw error
          } finally {
            inFlight.delete(index)
          }
        }
      }
      await Promise.all(Array.from({ length: WORKERS }, worker))
      expect(killed, `round ${round} reached ${killAfter} acknowledgements`).toBe(true)
      expect((await sandbox.process.exited).signal).toBe('SIGKILL')

      // The file as the crash left it: money conserved, nothing negative, the outbox intact.
      const { supply, deliveries } = await inspectDatabaseFile(dbFile)
      expect(supply.usdc.circulating).toBe(supply.usdc.issued)
      pendingAtCrashes += deliveries.filter((delivery) => delivery.status === 'pending').length
    }

    // The last restart: everything checked once more, and the outbox drains to the receiver.
    receiver.answer = () => ({ status: 200, body: 'ok' })
    const { sandbox, url, merchant } = await start(dbFile)
    await verify(url, merchant, acked)
    await waitFor(
      'the webhook outbox to drain',
      async () => {
        const pending = await signed(url, merchant, 'GET', `/merchants/${merchant.id}/webhook-logs?status=pending&limit=1`)
        return (pending.json as { meta: { totalItems: number } }).meta.totalItems === 0
      },
      20_000,
    )
    await sandbox.stop('SIGTERM')
    const { supply, deliveries } = await inspectDatabaseFile(dbFile)
    expect(supply.usdc.circulating).toBe(supply.usdc.issued)

    // Each delivery reached the receiver with its exact bytes and a valid signature (at least once:
    // one cut off mid-flight by a crash is sent again).
    const received = new Map<string, number>()
    for (const request of receiver.received) {
      expect(request.verified).toBe(true)
      received.set(request.raw.toString('utf8'), (received.get(request.raw.toString('utf8')) ?? 0) + 1)
    }
    expect(deliveries.length).toBeGreaterThan(0)
    for (const delivery of deliveries) {
      expect(delivery.status, `delivery ${delivery.id}`).toBe('success')
      expect(received.get(delivery.request_payload), `delivery ${delivery.id} of ${delivery.payment_id}`).toBeGreaterThanOrEqual(1)
    }
    const createdEvents = new Set(deliveries.filter((d) => d.event_type === 'transaction_created').map((d) => d.payment_id))
    for (const { body, id } of acked.payments.values()) if (body.webhookUrl !== undefined) expect(createdEvents, `transaction_created of ${id}`).toContain(id)

    // The test proves something only if the kills cut requests off and left deliveries pending.
    expect(inFlightAtKills).toBeGreaterThan(0)
    expect(pendingAtCrashes).toBeGreaterThan(0)
    expect(acked.payments.size + acked.invoices.size).toBeGreaterThan(ROUNDS * 20)
  }, 120_000)
})
