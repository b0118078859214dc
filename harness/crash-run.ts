// Crash safety (issue 9): a sandbox process taking concurrent writes is killed with SIGKILL after
// a seeded number of acknowledgements and restarted on the same file, round after round; whatever
// was acknowledged must be there, keys replay, invoice numbers stay gapless, money is conserved,
// and pending webhooks arrive after the last restart. Failed checks become `violations` rather
// than vitest expectations, so the bench can run this under tsx too.
import path from 'node:path'
import { Rng } from './hostile/rng.js'
import { temporaryDir, type RawResponse } from './sandbox.js'
import { spawnSandbox, type SandboxProcess } from './sandbox-process.js'
import { waitFor } from './wait.js'
import { startWebhookReceiver, type ReceivedWebhook, type WebhookReceiver } from './webhook-receiver.js'
import { inspectDatabaseFile, listInvoices, numberingProblems, paymentsByKey, signed, type Merchant } from './sandbox-checks.js'

export const CRASH_SEED = 0xc7a5_4009
export const CI_ROUNDS = 3
const WORKERS = 6
const OPS_PER_ROUND = 120
/** Writes sent to the surviving replica alone after each kill, in a run with two. */
const SURVIVOR_OPS = 30

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
      const body: Record<string, unknown> = {
        amount: { value: rng.int(100, 50_000), currency: 'USD' },
        description: `Crash round ${round} op ${i}`,
        metadata: { key },
      }
      if (rng.chance(0.6)) body.webhookUrl = webhookUrl
      ops.push({ kind: 'payment', key, body })
    } else if (roll < 0.75) {
      ops.push({
        kind: 'invoice',
        body: {
          currency: 'EUR',
          line_items: [{ description: `Item ${i}`, quantity: rng.int(1, 5), unit_price: rng.int(100, 9_999) }],
          customer: { email: `c${i}@example.com` },
        },
      })
    } else {
      ops.push({ kind: 'pay', index: rng.pick(paymentOps) })
    }
  }
  return ops
}

export interface Acknowledged {
  /** Idempotency key → the request body and the response text it was acknowledged with. */
  payments: Map<string, { body: Record<string, unknown>; response: string; id: string }>
  /** Keys sent but never acknowledged (in flight at the kill). */
  unacknowledgedKeys: Map<string, Record<string, unknown>>
  /** Invoice id → number. */
  invoices: Map<string, string>
  /** Payments acknowledged as paid. */
  paid: Set<string>
}

const show = (value: unknown): string =>
  typeof value === 'string' ? JSON.stringify(value.length > 200 ? `${value.slice(0, 200)}…` : value) : String(value)

/** One violation when `actual` is not `expected` (compared as vitest's toBe does), else none. */
function differs(what: string, actual: unknown, expected: unknown): string[] {
  return Object.is(actual, expected) ? [] : [`${what}: expected ${show(expected)}, got ${show(actual)}`]
}

const messageOf = (error: unknown): string => (error instanceof Error ? error.message : String(error))

/** Keys left unacknowledged are retried once here and join the acknowledged; rejects only when nothing answers. */
export async function verifyAcknowledged(url: string, merchant: Merchant, acked: Acknowledged): Promise<string[]> {
  const violations: string[] = []
  for (const [key, { body, response, id }] of acked.payments) {
    const replay = await signed(url, merchant, 'POST', '/payments', body, { 'idempotency-key': key })
    violations.push(...differs(`replay of ${key}: status`, replay.status, 200))
    violations.push(...differs(`replay of ${key}: body`, replay.text, response))
    const now = await signed(url, merchant, 'GET', `/payments/${id}`)
    violations.push(...differs(`payment ${id}: status`, now.status, 200))
    if (acked.paid.has(id)) violations.push(...differs(`paid payment ${id}`, (now.json as { status?: string } | undefined)?.status, 'paid'))
  }
  // A key whose request was cut off made its payment or not; a retry now makes it exactly once.
  for (const [key, body] of acked.unacknowledgedKeys) {
    const first = await signed(url, merchant, 'POST', '/payments', body, { 'idempotency-key': key })
    const second = await signed(url, merchant, 'POST', '/payments', body, { 'idempotency-key': key })
    violations.push(...differs(`retry of ${key}: status (${first.text.slice(0, 200)})`, first.status, 200))
    violations.push(...differs(`second retry of ${key}: body`, second.text, first.text))
    if (first.status === 200) acked.payments.set(key, { body, response: first.text, id: (first.json as { id: string }).id })
  }
  acked.unacknowledgedKeys.clear()
  const byKey = await paymentsByKey(url, merchant)
  for (const key of acked.payments.keys()) violations.push(...differs(`payments made with key ${key}`, byKey.get(key)?.length, 1))
  for (const [key, payments] of byKey)
    if (!acked.payments.has(key)) violations.push(...differs(`payments made with key ${key}`, payments.length, 1))

  const invoices = await listInvoices(url, merchant)
  violations.push(...numberingProblems(invoices.map((invoice) => invoice.invoice_number)).map((problem) => `invoice numbering: ${problem}`))
  const numbers = new Map(invoices.map((invoice) => [invoice.id, invoice.invoice_number]))
  for (const [id, number] of acked.invoices) violations.push(...differs(`invoice ${id}`, numbers.get(id), number))
  return violations
}

export interface CrashRunOptions {
  /** SIGKILL rounds on the one database (default CI_ROUNDS); a last restart checks everything after them. */
  rounds?: number
  /** The database: a fresh, empty one (such as a PostgreSQL URL); default a new SQLite file. */
  database?: string
  /** 2: a replica on the same database takes half the writes and must keep acknowledging while the other is killed. */
  replicas?: 1 | 2
  seed?: number
  /** Ends the run early (the bench's time budget, a test's teardown): its sandboxes are killed and the reason becomes a violation. */
  signal?: AbortSignal
}

export interface CrashRunReport {
  seed: number
  rounds: number
  /** Rounds that ended in their SIGKILL. */
  roundsRun: number
  durationMs: number
  /** Writes acknowledged (or answered when retried after a restart), each checked after every later restart. */
  acknowledged: { payments: number; invoices: number; paid: number }
  /** Requests cut off by the kills, and webhook deliveries the crashes left pending: the run proves something only if both are above 0. */
  inFlightAtKills: number
  pendingAtCrashes: number
  /** Deliveries in the outbox at the end, each checked to have arrived. */
  deliveries: number
  /** Every check that failed, in order; empty when the run passed. */
  violations: string[]
}

/** The file as a crash left it: money conserved, nothing negative, the outbox intact; and the deliveries the crash left pending. */
async function inspectCrashedFile(dbFile: string, round: number): Promise<{ violations: string[]; pending: number }> {
  try {
    const { supply, deliveries } = await inspectDatabaseFile(dbFile)
    return {
      violations: differs(`round ${round}: USDC in circulation after the kill`, supply.usdc.circulating, supply.usdc.issued),
      pending: deliveries.filter((delivery) => delivery.status === 'pending').length,
    }
  } catch (error) {
    return { violations: [`round ${round}: the file after the kill: ${messageOf(error)}`], pending: 0 }
  }
}

/**
 * Each delivery reached the receiver with its exact bytes and a valid signature (at least once:
 * one cut off mid-flight by a crash is sent again), and each payment that reports has its event.
 */
function deliveryViolations(
  receivedWebhooks: readonly ReceivedWebhook[],
  deliveries: Awaited<ReturnType<typeof inspectDatabaseFile>>['deliveries'],
  acked: Acknowledged,
): string[] {
  const violations: string[] = []
  const received = new Map<string, number>()
  for (const request of receivedWebhooks) {
    if (!request.verified)
      violations.push(`a webhook received at ${request.path} has no valid signature: ${request.raw.toString('utf8').slice(0, 200)}`)
    received.set(request.raw.toString('utf8'), (received.get(request.raw.toString('utf8')) ?? 0) + 1)
  }
  for (const delivery of deliveries) {
    violations.push(...differs(`delivery ${delivery.id}: status`, delivery.status, 'success'))
    if ((received.get(delivery.request_payload) ?? 0) < 1)
      violations.push(`delivery ${delivery.id} of ${delivery.subject_id}: never received with its exact bytes`)
  }
  const createdEvents = new Set(deliveries.filter((d) => d.event_type === 'transaction_created').map((d) => d.subject_id))
  for (const { body, id } of acked.payments.values()) {
    if (body.webhookUrl !== undefined && !createdEvents.has(id))
      violations.push(`payment ${id} reports to the receiver but has no transaction_created delivery`)
  }
  return violations
}

/** Runs the rounds on a fresh database file and reports; throws only on a fault of the run itself (no free port, no receiver). */
export async function runCrashRounds(options: CrashRunOptions = {}): Promise<CrashRunReport> {
  const seed = options.seed ?? CRASH_SEED
  const rounds = options.rounds ?? CI_ROUNDS
  const { signal } = options
  const started = performance.now()
  const dbFile = options.database ?? path.join(temporaryDir('paybox-crash-'), 'sandbox.db')
  /** The replica that is never killed, in a run with two. */
  let survivor: { sandbox: SandboxProcess; url: string; merchant: Merchant } | undefined
  const rng = new Rng(seed)
  const acked: Acknowledged = { payments: new Map(), unacknowledgedKeys: new Map(), invoices: new Map(), paid: new Set() }
  const violations: string[] = []
  const running = new Set<SandboxProcess>()
  let roundsRun = 0
  let inFlightAtKills = 0
  let pendingAtCrashes = 0
  let deliveryCount = 0

  // Killing the sandboxes ends every request in flight at once, so an abort takes effect quickly.
  const killAll = () => {
    for (const sandbox of running) void sandbox.stop('SIGKILL')
  }
  signal?.addEventListener('abort', killAll, { once: true })
  const receiver: WebhookReceiver = await startWebhookReceiver('')

  async function start(): Promise<{ sandbox: SandboxProcess; url: string; merchant: Merchant }> {
    signal?.throwIfAborted()
    const sandbox = await spawnSandbox(['--port', '0', '--db', dbFile, '--ledger-close', 'instant'])
    running.add(sandbox)
    signal?.throwIfAborted()
    return { sandbox, url: sandbox.banner.baseUrl, merchant: sandbox.banner.merchants.find((m) => m.settlement_mode === 'direct')! }
  }

  try {
    for (let round = 1; round <= rounds; round++) {
      const { sandbox, url, merchant } = await start()
      // Started after the first victim, so that the victim leads (sends webhooks) when it is first killed.
      if (options.replicas === 2) survivor ??= await start()
      receiver.secret = merchant.apiSecret
      receiver.answer = () => ({ status: 200, body: 'ok' })
      if (round > 1) violations.push(...(await verifyAcknowledged(url, merchant, acked)).map((v) => `after restart ${round - 1}: ${v}`))

      // Some receiver answers hang, so deliveries are still on the wire (pending) when the kill comes.
      const answers = new Rng(seed + round)
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
      const answered = (response: RawResponse): RawResponse => {
        if (response.status !== 200) throw new Error(`status ${response.status}: ${response.text.slice(0, 200)}`)
        return response
      }
      let next = 0
      /** Runs the op at `index` through `url`; a failure is a violation unless `mayBeCut` (the kill cut it off). */
      const runOp = async (index: number, url: string, mayBeCut: () => boolean) => {
        const op = ops[index]!
        inFlight.add(index)
        try {
          if (op.kind === 'payment') {
            acked.unacknowledgedKeys.set(op.key, op.body)
            const response = answered(await signed(url, merchant, 'POST', '/payments', op.body, { 'idempotency-key': op.key }))
            const id = (response.json as { id: string }).id
            acked.unacknowledgedKeys.delete(op.key)
            acked.payments.set(op.key, { body: op.body, response: response.text, id })
            idOfOp.set(index, id)
            acknowledge()
          } else if (op.kind === 'invoice') {
            const response = answered(await signed(url, merchant, 'POST', '/invoices', op.body))
            const invoice = response.json as { id: string; invoice_number: string }
            acked.invoices.set(invoice.id, invoice.invoice_number)
            acknowledge()
          } else {
            const id = idOfOp.get(op.index)
            if (id === undefined || acked.paid.has(id)) return
            const response = await signed(url, merchant, 'POST', `/sandbox/payments/${id}/pay`, {})
            // Two pays of one payment may race: the second is refused as already paid.
            if (response.status === 409) return
            const { status } = answered(response).json as { status: string }
            if (status !== 'paid') throw new Error(`the payment is ${status}, not paid`)
            acked.paid.add(id)
            acknowledge()
          }
        } catch (error) {
          // Only the kill may cut a request off or answer it wrongly; anything else is a violation.
          if (!mayBeCut() && !signal?.aborted) violations.push(`round ${round}, op ${index} (${op.kind}): ${messageOf(error)}`)
        } finally {
          inFlight.delete(index)
        }
      }
      const worker = async () => {
        while (!killed && !signal?.aborted && next < ops.length) {
          const index = next++
          // With two replicas, every other write goes to the one that is not killed: it must always be answered.
          if (survivor !== undefined && index % 2 === 1) await runOp(index, survivor.url, () => false)
          else await runOp(index, url, () => killed)
        }
      }
      await Promise.all(Array.from({ length: WORKERS }, worker))
      signal?.throwIfAborted()
      if (!killed) throw new Error(`round ${round} ran out of writes before ${killAfter} acknowledgements`)
      violations.push(...differs(`round ${round}: how the sandbox ended`, (await sandbox.process.exited).signal, 'SIGKILL'))
      roundsRun++
      if (survivor !== undefined) {
        // The other replica takes over (webhooks included) and keeps acknowledging writes meanwhile.
        receiver.answer = () => ({ status: 200, body: 'ok' })
        receiver.releaseHanging()
        const kept = survivor
        const until = Math.min(ops.length, next + SURVIVOR_OPS)
        while (next < until && !signal?.aborted) await runOp(next++, kept.url, () => false)
      }

      const crashed = await inspectCrashedFile(dbFile, round)
      violations.push(...crashed.violations)
      pendingAtCrashes += crashed.pending
    }

    // The last restart: everything checked once more, and the outbox drains to the receiver.
    receiver.answer = () => ({ status: 200, body: 'ok' })
    const { sandbox, url, merchant } = await start()
    violations.push(...(await verifyAcknowledged(url, merchant, acked)).map((v) => `after the last restart: ${v}`))
    await waitFor(
      'the webhook outbox to drain',
      async () => {
        const pending = await signed(url, merchant, 'GET', `/merchants/${merchant.id}/webhook-logs?status=pending&limit=1`)
        return (pending.json as { meta: { totalItems: number } }).meta.totalItems === 0
      },
      20_000,
    )
    await sandbox.stop('SIGTERM')
    await survivor?.sandbox.stop('SIGTERM')
    const { supply, deliveries } = await inspectDatabaseFile(dbFile)
    violations.push(...differs('at the end: USDC in circulation', supply.usdc.circulating, supply.usdc.issued))

    deliveryCount = deliveries.length
    violations.push(...deliveryViolations(receiver.received, deliveries, acked))
  } catch (error) {
    // A sandbox that no longer starts on the crashed file, or answers nothing, ends the run here.
    violations.push(`stopped after ${roundsRun} of ${rounds} rounds: ${messageOf(error)}`)
  } finally {
    signal?.removeEventListener('abort', killAll)
    for (const sandbox of running) await sandbox.stop('SIGKILL')
    await receiver.close()
  }

  return {
    seed,
    rounds,
    roundsRun,
    durationMs: Math.round(performance.now() - started),
    acknowledged: { payments: acked.payments.size, invoices: acked.invoices.size, paid: acked.paid.size },
    inFlightAtKills,
    pendingAtCrashes,
    deliveries: deliveryCount,
    violations,
  }
}
