// `paybox trigger <event> --webhook-url URL` run in-process against a real sandbox and a real
// receiver: the receiver gets exactly the events of the requested path, signed, and the command
// prints what the sandbox logged once every delivery has finished.
import { beforeEach, describe, expect, it } from 'vitest'
import type { TriggerResult } from '../../src/cli/webhook-trigger.js'
import { runTransaction } from '../../sandbox/db/database.js'
import { expectOneLineFailure, linesOf, merchantEnv, runCli, runCliJson } from '../../harness/cli.js'
import { sandboxForSuite } from '../../harness/sandbox.js'
import { waitFor } from '../../harness/wait.js'
import { receivedFor, webhookData, webhookReceiverForSuite } from '../../harness/webhook-receiver.js'

describe('paybox trigger', () => {
  const sandbox = sandboxForSuite({ webhookPollMs: 20 })
  const receiver = webhookReceiverForSuite(() => sandbox.merchants[0]!.apiSecret)
  const env = () => merchantEnv(sandbox)
  const eventsOf = (paymentId: string) =>
    receivedFor(receiver, paymentId)
      .map((r) => webhookData(r.raw))
      .map((d) => `${d.type}:${d.status}/${d.settlement_status}`)

  const trigger = (args: string[]) => runCliJson<TriggerResult>(['trigger', ...args, '--webhook-url', receiver.url], env())

  /** Every delivery was received, verified, and is what the command returned, in order. */
  function expectDelivered(result: TriggerResult): void {
    const received = receivedFor(receiver, result.payment.id)
    expect(received.every((r) => r.verified)).toBe(true)
    expect(result.deliveries.map((d) => d.request_payload)).toEqual(received.map((r) => r.raw.toString('utf8')))
    expect(result.deliveries.every((d) => d.status === 'success' && d.http_status === 200)).toBe(true)
  }

  it('transaction_created: creates a payment reporting to the URL; the receiver gets the created event', async () => {
    const { json, exitCode, stderr } = await trigger(['transaction_created'])
    expect(exitCode).toBe(0)
    expect(stderr).toBe('')
    expect(json.payment).toMatchObject({ status: 'open', webhookUrl: receiver.url, amount: { value: 1000, currency: 'USD' } })
    expect(eventsOf(json.payment.id)).toEqual(['transaction_created:open/open'])
    expectDelivered(json)
  })

  it('transaction_updated --status underpaid: created, then updated as underpaid', async () => {
    const { json, exitCode } = await trigger(['transaction_updated', '--status', 'underpaid'])
    expect(exitCode).toBe(0)
    expect(json.payment).toMatchObject({ status: 'underpaid', amount_paid: 500 })
    expect(eventsOf(json.payment.id)).toEqual(['transaction_created:open/open', 'transaction_updated:underpaid/open'])
    expectDelivered(json)
  })

  it('transaction_updated (paid by default): created, then paid, with the settlement that follows', async () => {
    const { json, exitCode } = await trigger(['transaction_updated'])
    expect(exitCode).toBe(0)
    expect(json.payment).toMatchObject({ status: 'paid', settlement_status: 'paid' })
    expect(eventsOf(json.payment.id)).toEqual([
      'transaction_created:open/open',
      'transaction_updated:paid/open',
      'transaction_updated:paid/processing',
      'transaction_updated:paid/paid',
    ])
    expectDelivered(json)
  })

  it('transaction_updated --status settled: waits for the settlement; the last event reports it', async () => {
    const { json, exitCode } = await trigger(['transaction_updated', '--status', 'settled'])
    expect(exitCode).toBe(0)
    expect(json.payment).toMatchObject({ status: 'paid', settlement_status: 'paid' })
    expect(eventsOf(json.payment.id)).toEqual([
      'transaction_created:open/open',
      'transaction_updated:paid/open',
      'transaction_updated:paid/processing',
      'transaction_updated:paid/paid',
    ])
    expectDelivered(json)
  })

  it('transaction_failed: created, then failed', async () => {
    const { json, exitCode } = await trigger(['transaction_failed'])
    expect(exitCode).toBe(0)
    expect(json.payment.status).toBe('failed')
    expect(eventsOf(json.payment.id)).toEqual(['transaction_created:open/open', 'transaction_failed:failed/open'])
    expectDelivered(json)
  })

  it('--currency and --amount price the payment', async () => {
    const { json, exitCode } = await trigger(['transaction_created', '--currency', 'eur', '--amount', '25'])
    expect(exitCode).toBe(0)
    expect(json.payment.amount).toEqual({ value: 2500, currency: 'EUR' })
    expect(webhookData(receivedFor(receiver, json.payment.id)[0]!.raw).amount).toEqual({ value: 2500, currency: 'EUR' })
  })

  it('without --amount the payment is 10 of the currency, whatever its decimals', async () => {
    const { json, exitCode } = await trigger(['transaction_created', '--currency', 'JPY'])
    expect(exitCode).toBe(0)
    expect(json.payment.amount).toEqual({ value: 10, currency: 'JPY' })
  })

  it("prints the payment id and each event with the receiver's answer, failures included", async () => {
    receiver.answer = () => ({ status: 503, body: 'down for maintenance' })
    const { stdout, stderr, exitCode } = await runCli(
      ['trigger', 'transaction_updated', '--status', 'underpaid', '--webhook-url', receiver.url],
      env(),
    )
    // Every delivery it waited for failed: that is a failed trigger, said in one line.
    expect(exitCode).toBe(1)
    expect(stderr).toBe(`Error: 2 of 2 webhook deliveries to ${receiver.url} did not get a 2xx answer (HTTP 503)\n`)
    const id = /Payment (pt_[0-9a-f]+) \(underpaid, settlement open\) emitted 2 webhook events to /.exec(stdout)?.[1]
    expect(id).toBeDefined()
    const rows = linesOf(stdout).filter((line) => line.includes('transaction_'))
    expect(rows).toHaveLength(2)
    expect(rows[0]).toContain('open/open')
    expect(rows[1]).toContain('underpaid/open')
    for (const row of rows) {
      expect(row).toContain('failed')
      expect(row).toContain('503')
    }
    const logged = (await sandbox.direct.webhooks.list({ checkout_id: id })).items
    expect(logged.map((d) => d.status)).toEqual(['failed', 'failed'])
    for (const delivery of logged) expect(stdout).toContain(delivery.id)
  })

  it('exits 1 when the receiver cannot be reached, naming why, and still returns the deliveries with --json', async () => {
    const closed = 'http://127.0.0.1:9/hooks'
    const { json, stderr, exitCode } = await runCliJson<TriggerResult>(['trigger', 'transaction_failed', '--webhook-url', closed], env())
    expect(exitCode).toBe(1)
    expect(json.deliveries.map((d) => d.status)).toEqual(['failed', 'failed'])
    expect(linesOf(stderr)).toHaveLength(1)
    expect(stderr).toMatch(new RegExp(`^Error: 2 of 2 webhook deliveries to ${closed} did not get a 2xx answer \\(.*ECONNREFUSED.*\\)\\n$`))
  })

  describe('refuses bad input in one line and creates nothing', () => {
    const paymentCount = async () => (await sandbox.direct.payments.list({ limit: 1 })).meta.totalItems
    let before: number
    beforeEach(async () => {
      before = await paymentCount()
    })
    const refuse = async (args: string[], message: string, exitCode = 1) => {
      expectOneLineFailure(await runCli(['trigger', ...args], env()), message, exitCode)
      expect(await paymentCount()).toBe(before)
    }

    it('an unknown event', () =>
      refuse(
        ['transaction_refunded', '--webhook-url', 'http://127.0.0.1:9/hooks'],
        'Expected transaction_refunded to be one of: transaction_created, transaction_updated, transaction_failed (see --help)',
      ))
    it('--status with another event than transaction_updated', () =>
      refuse(
        ['transaction_created', '--status', 'paid', '--webhook-url', 'http://127.0.0.1:9/hooks'],
        '--status applies only to transaction_updated, not transaction_created',
      ))
    it('a --webhook-url that is not http(s)', () =>
      refuse(
        ['transaction_created', '--webhook-url', 'ftp://127.0.0.1/hooks'],
        '--webhook-url must be an absolute http(s) URL, got "ftp://127.0.0.1/hooks"',
      ))
    it('an --amount the currency cannot have', () =>
      refuse(
        ['transaction_created', '--currency', 'JPY', '--amount', '1.5', '--webhook-url', 'http://127.0.0.1:9/hooks'],
        '--amount must be a positive amount with at most 0 decimal places for JPY, got "1.5"',
      ))
    it('--status settled for an escrow merchant', async () => {
      const result = await runCli(
        ['trigger', 'transaction_updated', '--status', 'settled', '--webhook-url', receiver.url],
        merchantEnv(sandbox, 'escrow'),
      )
      expectOneLineFailure(
        result,
        '--status settled needs a direct merchant (an escrow payment settles only when its escrow order is released)',
      )
      expect((await sandbox.escrow.payments.list({ limit: 1 })).meta.totalItems).toBe(0)
    })
  })
})

// As `paybox sandbox start` runs it: the settlement's ledger closes on a timer, after the pay
// request has answered. Here the test closes it, once the trigger is waiting on it.
describe('paybox trigger against a ledger that closes later', () => {
  const sandbox = sandboxForSuite({ webhookPollMs: 20, ledgerClose: 3_600_000 })
  const receiver = webhookReceiverForSuite(() => sandbox.merchants[0]!.apiSecret)

  it('transaction_updated (paid): waits for the settled event the ledger close sends, and lists all four', async () => {
    const running = runCliJson<TriggerResult>(['trigger', 'transaction_updated', '--webhook-url', receiver.url], merchantEnv(sandbox))
    const { db } = sandbox.context
    const merchantId = sandbox.merchants[0]!.id
    // Read from the database, so that every request of the merchant from here on is the trigger's.
    const processing = await waitFor('the triggered payment settling, with its three deliveries finished', async () => {
      const payment = await db
        .selectFrom('payments')
        .select(['id', 'settlement_status'])
        .where('merchant_id', '=', merchantId)
        .executeTakeFirst()
      if (payment?.settlement_status !== 'processing') return undefined
      const deliveries = await db.selectFrom('webhook_deliveries').select('status').where('subject_id', '=', payment.id).execute()
      return deliveries.length === 3 && deliveries.every((d) => d.status !== 'pending') && payment
    })
    // Once the trigger has asked again since, it has seen three finished deliveries: the fourth
    // comes only with the ledger close, which a trigger that has stopped waiting misses.
    const finishedAt = Date.now()
    await waitFor('a request of the trigger made after that', async () => {
      const { items } = await sandbox.admin.requestLogs.listAll({})
      return items.some((entry) => entry.merchantId === merchantId && Date.parse(entry.time) > finishedAt)
    })
    await runTransaction(db, (trx) => sandbox.context.ledger.closeLedger(trx))

    const { json, exitCode } = await running
    expect(exitCode).toBe(0)
    expect(json.payment).toMatchObject({ id: processing.id, status: 'paid', settlement_status: 'paid' })
    expect(json.deliveries.map((d) => webhookData(Buffer.from(d.request_payload!)).settlement_status)).toEqual([
      'open',
      'open',
      'processing',
      'paid',
    ])
    expect(receivedFor(receiver, processing.id)).toHaveLength(4)
    expect(json.deliveries.map((d) => d.request_payload)).toEqual(receivedFor(receiver, processing.id).map((r) => r.raw.toString('utf8')))
  })
})
