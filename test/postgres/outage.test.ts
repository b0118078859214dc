// A PostgreSQL outage (issue 17): while the server is down, /health answers 503 with a JSON body
// naming the database, and every other request a JSON 503 it may retry, never a 500, and none
// waits past its timeout; once the server is back the sandbox recovers by itself. A restart in
// the middle of load loses no acknowledged payment and leaves the ledger's books balanced.
import pg from 'pg'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createTestDatabase, startPrivateCluster, type PrivateCluster, type TestDatabase } from '../../harness/postgres.js'
import { ledgerSupply, rawRequest, startTestSandbox, type RawResponse, type TestSandbox } from '../../harness/sandbox.js'
import { waitFor } from '../../harness/wait.js'

describe('a PostgreSQL outage', () => {
  let cluster: PrivateCluster
  let database: TestDatabase
  let sandbox: TestSandbox
  const health = () => rawRequest(sandbox.url, { method: 'GET', path: '/health' })
  /** Payment `i`, created through `on` (the suite's sandbox unless said). */
  const create = (i: number, on: TestSandbox = sandbox) =>
    rawRequest(on.url, {
      method: 'POST',
      path: '/payments',
      as: on.merchants[0]!,
      body: JSON.stringify({ amount: { value: 100 + i, currency: 'USD' }, description: `Outage ${i}` }),
    })

  beforeAll(async () => {
    cluster = await startPrivateCluster()
    database = await createTestDatabase('paybox_outage', cluster.adminUrl)
    sandbox = await startTestSandbox({ db: database.url })
  }, 120_000)
  afterAll(async () => {
    await sandbox?.stop()
    await cluster?.remove()
  })

  it('answers 503 with a JSON body while the server is down, and recovers by itself', async () => {
    expect((await health()).status).toBe(200)
    await cluster.pause()

    const down = await health()
    expect(down.status).toBe(503)
    const body = down.json as { statusCode: number; reason: string; checks: { database: { status: string; detail?: string } } }
    expect(body.statusCode).toBe(503)
    expect(body.checks.database.status).toBe('failing')
    expect(body.checks.database.detail).toMatch(/PostgreSQL/)

    const refused = await create(0)
    expect(refused.status, refused.text).toBe(503)
    expect(refused.json).toMatchObject({ statusCode: 503, reason: 'Service Unavailable' })
    expect(refused.headers.get('retry-after')).toBe('1')
    const read = await rawRequest(sandbox.url, { method: 'GET', path: '/payments', as: sandbox.merchants[0]! })
    expect(read.status, read.text).toBe(503)

    await cluster.resume()
    await waitFor('the sandbox to be healthy again', async () => (await health()).status === 200, 20_000)
    expect((await create(1)).status).toBe(200)
  }, 60_000)

  it('keeps every acknowledged payment through a restart in the middle of load, and never answers 500', async () => {
    const answers: RawResponse[] = []
    let stop = false
    let i = 0
    const load = (async () => {
      while (!stop) answers.push(await create(++i))
    })()
    await waitFor('some payments before the restart', () => answers.filter((a) => a.status === 200).length >= 20)
    await cluster.pause()
    await waitFor('a refused payment during the outage', () => answers.some((a) => a.status === 503))
    await cluster.resume()
    await waitFor('payments again after the restart', async () => (await health()).status === 200, 20_000)
    const before = answers.length
    await waitFor('more payments after the restart', () => answers.slice(before).filter((a) => a.status === 200).length >= 20)
    stop = true
    await load

    expect(answers.filter((a) => a.status !== 200 && a.status !== 503).map((a) => `${a.status} ${a.text.slice(0, 200)}`)).toEqual([])
    const acknowledged = answers.filter((a) => a.status === 200).map((a) => (a.json as { id: string }).id)
    for (const id of acknowledged) {
      const found = await rawRequest(sandbox.url, { method: 'GET', path: `/payments/${id}`, as: sandbox.merchants[0]! })
      expect(found.status, id).toBe(200)
    }
    const supply = await ledgerSupply(sandbox)
    expect(supply.usdc.circulating).toBe(supply.usdc.issued)
  }, 90_000)

  it('answers 503 when a write waits for a row lock past its timeout, and writes again once the row is free', async () => {
    const busy = await startTestSandbox({ db: database.url, busyTimeoutMs: 300 })
    const created = await create(0, busy)
    expect(created.status, created.text).toBe(200)
    const { id } = created.json as { id: string }
    const pay = () => rawRequest(busy.url, { method: 'POST', path: `/sandbox/payments/${id}/pay`, as: busy.merchants[0]!, body: '{}' })
    // Another session holds the payment's row, as a transaction of another replica paying it would.
    const holder = new pg.Client({ connectionString: database.url })
    await holder.connect()
    try {
      await holder.query('begin')
      await holder.query('select 1 from payments where id = $1 for update', [id])
      const waited = await pay()
      expect(waited.status, waited.text).toBe(503)
      expect(waited.json).toMatchObject({ statusCode: 503, message: expect.stringMatching(/busy/) })
      expect(waited.headers.get('retry-after')).toBe('1')
      await holder.query('rollback')
      const paid = await pay()
      expect(paid.status, paid.text).toBe(200)
    } finally {
      await holder.end()
      // Given its database, this sandbox leaves it in place when it stops (the suite's own drops it).
      await busy.stop()
    }
  })
})
