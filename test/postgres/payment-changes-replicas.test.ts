// One payment's changes on two replicas (issue 25): many conflicting requests for one payment,
// sent at once and spread over both replicas, have exactly the outcome of running them one after
// another. Each change reads its payment locked (findPaymentForChange) before anything else, so
// these hold without the sandbox-wide write lock (run with PAYBOX_POSTGRES_SERIAL_WRITES=0).
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import pg from 'pg'
import { Asset, Horizon, Keypair, Memo, Operation, TransactionBuilder } from '@stellar/stellar-sdk'
import { createTestDatabase, type TestDatabase } from '../../harness/postgres.js'
import { startTestSandbox, type RawResponse, type TestSandbox } from '../../harness/sandbox.js'
import { waitFor } from '../../harness/wait.js'
import type { Payment } from '../../src/client/types.js'
import { runTransaction } from '../../sandbox/db/database.js'
import { inspectDatabaseFile, signed, type Merchant } from '../../harness/sandbox-checks.js'
import { spawnSandbox, type SandboxProcess } from '../../harness/sandbox-process.js'

const EVM_REFUND = '0x52908400098527886E0F7030069857D2E4169EE7'

describe('one payment changed from two replicas at once', () => {
  let database: TestDatabase
  let a: SandboxProcess
  let b: SandboxProcess
  let direct: Merchant
  let escrow: Merchant
  let sql: pg.Client

  beforeAll(async () => {
    database = await createTestDatabase('paybox_payment_changes')
    a = await spawnSandbox(['--port', '0', '--db', database.url, '--ledger-close', 'instant'])
    b = await spawnSandbox(['--port', '0', '--db', database.url, '--ledger-close', 'instant'])
    direct = a.banner.merchants.find((m) => m.settlement_mode === 'direct')!
    escrow = a.banner.merchants.find((m) => m.settlement_mode === 'escrow')!
    sql = new pg.Client({ connectionString: database.url })
    await sql.connect()
  })
  afterAll(async () => {
    await sql?.end()
    await a?.stop()
    await b?.stop()
    await database?.drop()
  })

  /** `count` requests at once, the even ones through A and the odd ones through B. */
  const atOnce = (count: number, send: (baseUrl: string, i: number) => Promise<RawResponse>) =>
    Promise.all(Array.from({ length: count }, (_, i) => send((i % 2 === 0 ? a : b).banner.baseUrl, i)))

  /** How many answers had each status, e.g. { 200: 1, 409: 19 }. */
  const statuses = (answers: RawResponse[]) => {
    const counts: Record<number, number> = {}
    for (const answer of answers) counts[answer.status] = (counts[answer.status] ?? 0) + 1
    return counts
  }

  const create = async (as: Merchant, value: number) => {
    const created = await signed(a.banner.baseUrl, as, 'POST', '/payments', {
      amount: { value, currency: 'USD' },
      description: 'Contested',
    })
    expect(created.status, created.text).toBe(200)
    return (created.json as { id: string }).id
  }
  const pay = async (as: Merchant, id: string, body: Record<string, unknown> = {}) => {
    const paid = await signed(b.banner.baseUrl, as, 'POST', `/sandbox/payments/${id}/pay`, body)
    expect(paid.status, paid.text).toBe(200)
  }
  const row = async (id: string) =>
    (
      await sql.query<{ status: string; escrow_status: string | null; usdc_amount: number; usdc_received: number; usdc_refunded: number }>(
        'select status, escrow_status, usdc_amount::float8 as usdc_amount, usdc_received::float8 as usdc_received, usdc_refunded::float8 as usdc_refunded from payments where id = $1',
        [id],
      )
    ).rows[0]!
  /** The successful ledger transactions carrying the payment's memo. */
  const transactionsOf = async (id: string) =>
    Number(
      (
        await sql.query<{ n: string }>(
          'select count(*) as n from ledger_transactions where successful = 1 and memo = (select memo from payments where id = $1)',
          [id],
        )
      ).rows[0]!.n,
    )
  const expectSupplyConserved = async () => {
    const { supply } = await inspectDatabaseFile(database.url)
    expect(supply.usdc.circulating).toBe(supply.usdc.issued)
    expect(supply.xlm.inAccounts + supply.xlm.feePool).toBe(supply.xlm.totalCoins)
  }

  it('refunds a paid payment 50 times at once: exactly what fits succeeds, and never more than it received', async () => {
    // 10.00 USD received; 50 refunds of 0.30 each: 33 fit (9.90), the other 17 are refused.
    const id = await create(direct, 1000)
    await pay(direct, id)
    const answers = await atOnce(50, (baseUrl) => signed(baseUrl, direct, 'POST', `/payments/${id}/refunds`, { amount: 30 }))
    expect(statuses(answers), answers.find((r) => r.status >= 500)?.text).toEqual({ 200: 33, 400: 17 })
    for (const refused of answers.filter((r) => r.status === 400))
      expect(refused.json).toMatchObject({ statusCode: 400, message: expect.stringContaining('still refundable') })
    const after = await row(id)
    expect(after.usdc_refunded).toBe((after.usdc_amount * 33 * 30) / 1000)
    const { rows } = await sql.query<{ total: number; n: number }>(
      'select sum(usdc_amount)::float8 as total, count(*)::int as n from refunds where payment_id = $1',
      [id],
    )
    expect(rows[0]).toEqual({ total: after.usdc_refunded, n: 33 })
    // The payment, its settlement and the 33 refunds: one ledger transaction each.
    expect(await transactionsOf(id)).toBe(2 + 33)
    await expectSupplyConserved()
  }, 60_000)

  it('pays one payment 20 times at once: one pays it, the others are 409 and move no money', async () => {
    const id = await create(direct, 1500)
    const answers = await atOnce(20, (baseUrl) => signed(baseUrl, direct, 'POST', `/sandbox/payments/${id}/pay`, {}))
    expect(statuses(answers), answers.find((r) => r.status >= 500)?.text).toEqual({ 200: 1, 409: 19 })
    const after = await row(id)
    expect(after).toMatchObject({ status: 'paid', usdc_received: after.usdc_amount })
    expect(await transactionsOf(id)).toBe(2)
    await expectSupplyConserved()
  }, 60_000)

  it('accepts one underpayment 20 times at once: it becomes paid and settles once', async () => {
    const id = await create(direct, 2000)
    await pay(direct, id, { underpay: true })
    const answers = await atOnce(20, (baseUrl) => signed(baseUrl, direct, 'POST', `/payments/${id}/accept-underpayment`))
    expect(statuses(answers), answers.find((r) => r.status >= 500)?.text).toEqual({ 200: 1, 400: 19 })
    expect((await row(id)).status).toBe('paid')
    // The underpayment and one settlement.
    expect(await transactionsOf(id)).toBe(2)
    await expectSupplyConserved()
  }, 60_000)

  it('releases one funded escrow order 20 times at once: it is paid out once', async () => {
    const id = await create(escrow, 2500)
    await pay(escrow, id)
    expect((await row(id)).escrow_status).toBe('funded')
    const answers = await atOnce(20, (baseUrl) => signed(baseUrl, escrow, 'POST', `/sandbox/payments/${id}/escrow/release`))
    expect(statuses(answers), answers.find((r) => r.status >= 500)?.text).toEqual({ 200: 1, 409: 19 })
    // The funding and one release.
    expect(await transactionsOf(id)).toBe(2)
    await expectSupplyConserved()
  }, 60_000)

  it('funds and fails one escrow order at once: exactly one of them happens', async () => {
    const id = await create(escrow, 3000)
    const answers = await atOnce(20, (baseUrl, i) =>
      signed(baseUrl, escrow, 'POST', i % 4 < 2 ? `/sandbox/payments/${id}/pay` : `/sandbox/payments/${id}/escrow/fail`, {}),
    )
    expect(statuses(answers), answers.find((r) => r.status >= 500)?.text).toEqual({ 200: 1, 409: 19 })
    const after = await row(id)
    const funded = after.escrow_status === 'funded'
    // Paid and funded with the money in custody, or failed with none moved.
    expect(after).toMatchObject(
      funded ? { status: 'paid', usdc_received: after.usdc_amount } : { status: 'failed', escrow_status: 'failed', usdc_received: 0 },
    )
    expect(await transactionsOf(id)).toBe(funded ? 1 : 0)
    await expectSupplyConserved()
  }, 60_000)

  it('pays and expires one payment at once: exactly one of them happens', async () => {
    const id = await create(direct, 4000)
    const answers = await atOnce(20, (baseUrl, i) =>
      signed(baseUrl, direct, 'POST', `/sandbox/payments/${id}/${i % 4 < 2 ? 'pay' : 'expire'}`, {}),
    )
    expect(statuses(answers), answers.find((r) => r.status >= 500)?.text).toEqual({ 200: 1, 409: 19 })
    const after = await row(id)
    expect(after).toMatchObject(after.status === 'paid' ? { usdc_received: after.usdc_amount } : { status: 'expired', usdc_received: 0 })
    expect(await transactionsOf(id)).toBe(after.status === 'paid' ? 2 : 0)
  }, 60_000)

  it('pays an invoice and voids it at once: either it is paid or voided with its payment expired, never both', async () => {
    const created = await signed(a.banner.baseUrl, direct, 'POST', '/invoices', {
      currency: 'USD',
      line_items: [{ description: 'Contested', quantity: 1, unit_price: 4500 }],
      customer: { email: 'ada@example.com', name: 'Ada Lovelace', customer_type: 'individual' },
    })
    expect(created.status, created.text).toBe(200)
    const invoice = created.json as { id: string; payment_id: string }
    const answers = await atOnce(20, (baseUrl, i) =>
      i % 4 < 2
        ? signed(baseUrl, direct, 'POST', `/sandbox/payments/${invoice.payment_id}/pay`, {})
        : signed(baseUrl, direct, 'POST', `/invoices/${invoice.id}/cancel`),
    )
    expect(statuses(answers), answers.find((r) => r.status >= 500)?.text).toEqual({ 200: 1, 409: 19 })
    const { rows } = await sql.query<{ status: string }>('select status from invoices where id = $1', [invoice.id])
    const payment = await row(invoice.payment_id)
    expect([rows[0]!.status, payment.status]).toEqual(payment.status === 'paid' ? ['paid', 'paid'] : ['voided', 'expired'])
  }, 60_000)

  it('takes 20 full bridge deposits at once: one is swapped and delivered, the others go back', async () => {
    const id = await create(direct, 3500)
    const quoted = await signed(a.banner.baseUrl, direct, 'POST', `/payments/${id}/cross-chain/quote`, {
      originChain: 'ethereum',
      originToken: 'USDC',
      refundAddress: EVM_REFUND,
    })
    expect(quoted.status, quoted.text).toBe(200)
    const { quoteId, amountIn } = quoted.json as { quoteId: string; amountIn: string }
    const answers = await atOnce(20, (baseUrl) =>
      signed(baseUrl, direct, 'POST', `/sandbox/cross-chain/quotes/${quoteId}/deposit`, { amountIn }),
    )
    expect(statuses(answers), answers.find((r) => r.status >= 500)?.text).toEqual({ 200: 20 })
    const { rows } = await sql.query<{ status: string; amount_deposited: string; amount_refunded: string }>(
      'select status, amount_deposited, amount_refunded from cross_chain_quotes where id = $1',
      [quoteId],
    )
    const quote = rows[0]!
    expect(quote.status).toBe('SUCCESS')
    // All 20 arrived; 19 of them went back.
    expect(BigInt(quote.amount_refunded) * 20n).toBe(BigInt(quote.amount_deposited) * 19n)
    const after = await row(id)
    expect(after).toMatchObject({ status: 'paid', usdc_received: after.usdc_amount })
    // One delivery and one settlement.
    expect(await transactionsOf(id)).toBe(2)
    await expectSupplyConserved()
  }, 60_000)
})

/** Whether a sandbox connection waits for a lock (a fresh look: in a transaction, PostgreSQL keeps the first one). */
async function waitingForALock(sql: pg.Client): Promise<boolean> {
  await sql.query('select pg_stat_clear_snapshot()')
  const { rows } = await sql.query<{ n: number }>(
    "select count(*)::int as n from pg_stat_activity where datname = current_database() and application_name = 'paybox' and wait_event_type = 'Lock'",
  )
  return rows[0]!.n > 0
}

describe('changes that reach a payment through the ledger, while another replica changes it', () => {
  let database: TestDatabase
  let sandbox: TestSandbox
  let sql: pg.Client

  beforeAll(async () => {
    database = await createTestDatabase('paybox_settlement_lock')
    // Ledgers close only when the test closes one.
    sandbox = await startTestSandbox({ db: database.url, ledgerClose: 3_600_000 })
    sql = new pg.Client({ connectionString: database.url })
    await sql.connect()
  })
  afterAll(async () => {
    await sql?.end()
    await sandbox?.stop()
    await database?.drop()
  })

  it('waits for the change in flight and keeps it: the settled payment has both history entries', async () => {
    const payment = await sandbox.direct.payments.create({ amount: { value: 1200, currency: 'USD' }, description: 'Settling' })
    const paid = await sandbox.direct.request<Payment>('POST', `/sandbox/payments/${payment.id}/pay`, { body: {} })
    expect(paid.settlement_status).toBe('processing')
    // Another replica's change of the payment (a refund, say), not yet committed.
    const { rows } = await sql.query<{ history: string }>('select history from payments where id = $1', [payment.id])
    const history = [...(JSON.parse(rows[0]!.history) as unknown[]), { time: 1, status: 'refunded', description: 'In flight' }]
    await sql.query('begin')
    await sql.query('update payments set history = $1 where id = $2', [JSON.stringify(history), payment.id])
    const { db, ledger } = sandbox.context
    const closing = runTransaction(db, (trx) => ledger.closeLedger(trx))
    await waitFor('the close to wait for the payment row', () => waitingForALock(sql))
    await sql.query('commit')
    await closing
    const settled = await sandbox.direct.payments.get(payment.id)
    expect(settled.settlement_status).toBe('paid')
    expect(settled.history.map((entry) => entry.description)).toEqual(
      expect.arrayContaining(['In flight', expect.stringMatching(/^Settled/)]),
    )
  }, 60_000)

  it('locks the payment a Horizon submission pays before any ledger row', async () => {
    const payment = await sandbox.direct.payments.create({ amount: { value: 1300, currency: 'USD' }, description: 'Paid from a wallet' })
    const wallet = await sandbox.admin.sandbox.createWallet()
    const server = new Horizon.Server(`${sandbox.url}/horizon`, { allowHttp: true })
    const uri = new URL(payment.qrCode).searchParams
    const tx = new TransactionBuilder(await server.loadAccount(wallet.publicKey), {
      fee: '100',
      networkPassphrase: uri.get('network_passphrase')!,
    })
      .addOperation(
        Operation.payment({
          destination: uri.get('destination')!,
          asset: new Asset(uri.get('asset_code')!, uri.get('asset_issuer')!),
          amount: uri.get('amount')!,
        }),
      )
      .addMemo(Memo.text(uri.get('memo')!))
      .setTimeout(60)
      .build()
    tx.sign(Keypair.fromSecret(wallet.secret))
    // Another replica changes the payment meanwhile.
    await sql.query('begin')
    await sql.query('select id from payments where id = $1 for update', [payment.id])
    const submitting = server.submitTransaction(tx)
    await waitFor('the submission to wait for the payment row', () => waitingForALock(sql))
    // Waiting for the payment, it holds none of the ledger's rows yet (one would fail NOWAIT).
    const free = await sql
      .query('select public_key from ledger_accounts where public_key = any($1) for update nowait', [
        [wallet.publicKey, uri.get('destination')!],
      ])
      .then(
        (result) => result.rowCount,
        (error: { code?: string }) => error.code,
      )
    await sql.query('commit')
    await submitting
    expect(free).toBe(2)
    expect((await sandbox.direct.payments.get(payment.id)).status).toBe('paid')
  }, 60_000)
})
