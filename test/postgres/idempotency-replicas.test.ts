// One Idempotency-Key across two replicas on one PostgreSQL database: of identical requests sent
// at once to both, exactly one does the work and the others get 409 (its twin in flight) or its
// answer byte for byte; another body is 422. The key's row is the backstop: a row a writer
// without a claim stored while the request ran is replayed, never a 500.
import pg from 'pg'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { claimLockKeys } from '../../sandbox/db/postgres-write-transactions.js'
import { IN_FLIGHT_REASON, REUSED_REASON, requestFingerprint } from '../../sandbox/idempotency/idempotency-service.js'
import { queryFromOutside } from '../../harness/outside-db.js'
import { createTestDatabase, type TestDatabase } from '../../harness/postgres.js'
import type { RawResponse } from '../../harness/sandbox.js'
import { signed, type Merchant } from '../../harness/sandbox-checks.js'
import { spawnSandbox, type SandboxProcess } from '../../harness/sandbox-process.js'
import { waitFor } from '../../harness/wait.js'

const TWINS = 24

describe('one Idempotency-Key across two replicas', () => {
  let database: TestDatabase
  let a: SandboxProcess
  let b: SandboxProcess
  let merchant: Merchant

  beforeAll(async () => {
    database = await createTestDatabase('paybox_idem_replicas')
    a = await spawnSandbox(['--port', '0', '--db', database.url, '--ledger-close', 'instant'])
    b = await spawnSandbox(['--port', '0', '--db', database.url, '--ledger-close', 'instant'])
    merchant = a.banner.merchants.find((m) => m.settlement_mode === 'direct')!
  }, 60_000)
  afterAll(async () => {
    await a?.stop()
    await b?.stop()
    await database?.drop()
  })

  const create = (on: SandboxProcess, key: string, description: string, value = 500) =>
    signed(
      on.banner.baseUrl,
      merchant,
      'POST',
      '/payments',
      { amount: { value, currency: 'USD' }, description },
      { 'idempotency-key': key },
    )
  const paymentsDescribed = async (description: string) =>
    (
      await queryFromOutside<{ n: number }>(database.url, 'select count(*)::int as n from payments where description = ?', [description])
    )[0]!.n

  it('does the work once for identical requests sent at once to both replicas: the rest are 409 or its replay', async () => {
    const description = 'Twins across replicas'
    const answers = await Promise.all(Array.from({ length: TWINS }, (_, i) => create(i % 2 === 0 ? a : b, 'twins', description)))

    const unexpected = answers.filter((answer) => answer.status !== 200 && answer.status !== 409)
    expect(unexpected.map((answer) => `${answer.status} ${answer.text}`)).toEqual([])
    for (const refused of answers.filter((answer) => answer.status === 409))
      expect(refused.json).toMatchObject({ reason: IN_FLIGHT_REASON })
    const created = answers.filter((answer) => answer.status === 200)
    expect(created.length).toBeGreaterThanOrEqual(1)
    expect(new Set(created.map((answer) => answer.text)).size).toBe(1)
    expect(await paymentsDescribed(description)).toBe(1)

    // Once done, the key replays on either replica, and refuses another body on either.
    for (const on of [a, b]) expect((await create(on, 'twins', description)).text).toBe(created[0]!.text)
    for (const on of [a, b]) {
      const reused = await create(on, 'twins', description, 501)
      expect(reused.status, reused.text).toBe(422)
      expect(reused.json).toMatchObject({ reason: REUSED_REASON })
    }
    expect(await paymentsDescribed(description)).toBe(1)
  })

  it('answers 409 while a transaction elsewhere holds the key, though a create takes its claim only with its writes', async () => {
    const description = 'Claim held elsewhere'
    const holder = new pg.Client({ connectionString: database.url, application_name: 'claim-holder' })
    await holder.connect()
    try {
      await holder.query('begin')
      await holder.query(`select pg_advisory_xact_lock(${claimLockKeys('$1::text')})`, [`idempotency:${merchant.id}:held`])
      for (const on of [a, b]) {
        const refused = await create(on, 'held', description)
        expect(refused.status, refused.text).toBe(409)
        expect(refused.json).toMatchObject({ reason: IN_FLIGHT_REASON })
      }
      expect(await paymentsDescribed(description)).toBe(0)
    } finally {
      await holder.end()
    }
    const created = await create(a, 'held', description)
    expect(created.status, created.text).toBe(200)
    expect(await paymentsDescribed(description)).toBe(1)
  })

  /**
   * The answer to a request with `key` sent while a transaction outside, holding no claim, has
   * stored the key's row for `storedFor` without committing: it commits once the request waits on it.
   */
  const racedByRowWriter = async (key: string, body: unknown, storedFor: unknown): Promise<RawResponse> => {
    const writer = new pg.Client({ connectionString: database.url, application_name: 'row-writer' })
    await writer.connect()
    try {
      await writer.query('begin')
      await writer.query(
        `insert into idempotency_keys (merchant_id, key, request_hash, response_status, response_body, created_at) values ($1, $2, $3, 200, $4, 0)`,
        [merchant.id, key, requestFingerprint('POST', '/payments', storedFor), '{"stored":"by the writer"}'],
      )
      const answer = signed(b.banner.baseUrl, merchant, 'POST', '/payments', body, { 'idempotency-key': key })
      // The request has found no row, done its work and now waits to store its own behind the writer's.
      await waitFor('the request to wait on the uncommitted key row', async () => {
        const waiting = await writer.query(
          `select 1 from pg_stat_activity where datname = current_database() and application_name = 'paybox' and wait_event_type = 'Lock'`,
        )
        return waiting.rowCount! > 0
      })
      await writer.query('commit')
      return await answer
    } finally {
      await writer.end()
    }
  }

  it('replays the row a writer without a claim stored while the request ran, undoing its own work, never a 500', async () => {
    const body = { amount: { value: 600, currency: 'USD' }, description: 'Raced by a row writer' }
    const answer = await racedByRowWriter('raced', body, body)
    expect(answer.status, answer.text).toBe(200)
    expect(answer.text).toBe('{"stored":"by the writer"}')
    expect(await paymentsDescribed(body.description)).toBe(0)
  })

  it('refuses with 422 when that row was stored for another body', async () => {
    const body = { amount: { value: 700, currency: 'USD' }, description: 'Raced for another body' }
    const answer = await racedByRowWriter('raced-other', body, { ...body, description: 'Something else' })
    expect(answer.status, answer.text).toBe(422)
    expect(answer.json).toMatchObject({ reason: REUSED_REASON })
    expect(await paymentsDescribed(body.description)).toBe(0)
  })
})
