// Two sandbox processes on one database under concurrent load (issue 9; on PostgreSQL, issue 17):
// each idempotency key sent to both at once still makes one payment, invoice numbers drawn
// through both stay gapless and unique, racing pays of one payment move its money once, and no
// SQLITE_BUSY (nor any 5xx) ever reaches a client: writes take the write lock and wait for each other.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { Rng } from '../../harness/hostile/rng.js'
import { IN_FLIGHT_REASON } from '../../sandbox/idempotency/idempotency-service.js'
import { freshDatabase, testBackend, type RawResponse } from '../../harness/sandbox.js'
import { spawnSandbox, type SandboxProcess } from '../../harness/sandbox-process.js'
import { inspectDatabaseFile, listInvoices, numberingProblems, paymentsByKey, signed, type Merchant } from '../../harness/sandbox-checks.js'

const SEED = 0x2b0c_e55e
const KEYS = 40
const INVOICES = 60
const PAYS = 20

describe('two sandbox processes on one database', () => {
  let dbFile: string
  let dropDatabase = async () => {}
  const rng = new Rng(SEED)
  let a: SandboxProcess
  let b: SandboxProcess
  let merchant: Merchant
  const responses: RawResponse[] = []
  /** Sends through process `i % 2`, keeping every answer for the no-5xx check. */
  const via = async (i: number, method: string, path: string, body?: unknown, headers?: Record<string, string>) => {
    const response = await signed((i % 2 === 0 ? a : b).banner.baseUrl, merchant, method, path, body, headers)
    responses.push(response)
    return response
  }

  beforeAll(async () => {
    ;({ location: dbFile, drop: dropDatabase } = await freshDatabase())
    a = await spawnSandbox(['--port', '0', '--db', dbFile, '--ledger-close', 'instant'])
    // The second process opens the file the first created and seeded: the same merchants.
    b = await spawnSandbox(['--port', '0', '--db', dbFile, '--ledger-close', 'instant'])
    merchant = a.banner.merchants.find((m) => m.settlement_mode === 'direct')!
    expect(b.banner.merchants).toEqual(a.banner.merchants)
  })
  afterAll(async () => {
    await a?.stop()
    await b?.stop()
    await dropDatabase()
  })

  it('makes one payment per idempotency key sent to both processes at once, and both answer it byte for byte', async () => {
    // On PostgreSQL a twin still in flight on the other replica is a 409, retried here once it is
    // over; two SQLite processes let the second wait and replay instead.
    const retryInFlight = async (i: number, key: string, response: RawResponse): Promise<RawResponse> => {
      if (testBackend !== 'postgres' || response.status !== 409) return response
      expect(response.json).toMatchObject({ statusCode: 409, reason: IN_FLIGHT_REASON })
      return via(i, 'POST', '/payments', bodyOf(key), { 'idempotency-key': key })
    }
    const keys = Array.from({ length: KEYS }, (_, i) => `two-${i}-${rng.hex(8)}`)
    const bodyOf = (key: string) => ({
      amount: { value: 1000 + keys.indexOf(key), currency: 'USD' },
      description: `Two processes ${key}`,
      metadata: { key },
    })
    const answers = await Promise.all(
      keys.map((key, i) =>
        Promise.all([
          via(i, 'POST', '/payments', bodyOf(key), { 'idempotency-key': key }),
          via(i + 1, 'POST', '/payments', bodyOf(key), { 'idempotency-key': key }),
        ]).then(async ([first, second]): Promise<[RawResponse, RawResponse]> => [
          await retryInFlight(i, key, first),
          await retryInFlight(i + 1, key, second),
        ]),
      ),
    )
    for (const [first, second] of answers) {
      expect(first.status, first.text).toBe(200)
      expect(second.status, second.text).toBe(200)
      expect(second.text).toBe(first.text)
    }
    const byKey = await paymentsByKey(a.banner.baseUrl, merchant)
    for (const key of keys) expect(byKey.get(key)?.length, key).toBe(1)
  })

  it('numbers invoices created through both processes without a gap or a duplicate', async () => {
    const created = await Promise.all(
      Array.from({ length: INVOICES }, (_, i) =>
        via(i, 'POST', '/invoices', {
          currency: 'USD',
          line_items: [{ description: `Line ${i}`, quantity: 1, unit_price: rng.int(100, 5000) }],
          customer: { email: `two${i}@example.com` },
        }),
      ),
    )
    for (const response of created) expect(response.status, response.text).toBe(200)
    const numbers = created.map((response) => (response.json as { invoice_number: string }).invoice_number)
    expect(new Set(numbers).size).toBe(INVOICES)
    expect(numberingProblems((await listInvoices(b.banner.baseUrl, merchant)).map((invoice) => invoice.invoice_number))).toEqual([])
  })

  it('moves the money of racing pays of one payment once, and the ledger stays conserved', async () => {
    const payments = await Promise.all(
      Array.from({ length: PAYS }, (_, i) =>
        via(i, 'POST', '/payments', { amount: { value: 2000 + i, currency: 'USD' }, description: `Raced pay ${i}` }),
      ),
    )
    const ids = payments.map((response) => (response.json as { id: string }).id)
    // Each payment is paid through both processes at the same time.
    const pays = await Promise.all(
      ids.map((id, i) =>
        Promise.all([via(i, 'POST', `/sandbox/payments/${id}/pay`, {}), via(i + 1, 'POST', `/sandbox/payments/${id}/pay`, {})]),
      ),
    )
    for (const pair of pays) {
      expect(pair.map((r) => r.status).sort(), pair.map((r) => r.text.slice(0, 200)).join(' | ')).toEqual([200, 409])
    }
    for (const [i, id] of ids.entries()) {
      const payment = (await via(i, 'GET', `/payments/${id}`)).json as { status: string; amount_paid: number }
      expect(payment.status).toBe('paid')
      expect(payment.amount_paid).toBe(2000 + i)
    }
    const { supply } = await inspectDatabaseFile(dbFile)
    expect(supply.usdc.circulating).toBe(supply.usdc.issued)
  })

  it('never let SQLITE_BUSY or any other server error reach a client', () => {
    expect(responses.length).toBeGreaterThan(2 * KEYS + INVOICES + 3 * PAYS)
    expect(
      responses
        .filter((r) => r.status >= 500 || /SQLITE_BUSY|database is locked/i.test(r.text))
        .map((r) => `${r.status} ${r.text.slice(0, 200)}`),
    ).toEqual([])
  })
})
