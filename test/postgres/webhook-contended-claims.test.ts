// A replica whose claim inside a log transaction finds a share being filled elsewhere (here, its
// lock held by the test, as another replica's claim would hold it) leaves the retry to its next
// log transaction while it has deliveries on the wire: it does not start a claim of its own that
// would wait on that share. Once nothing is left on the wire, it waits for the share and sends.
import http from 'node:http'
import type { AddressInfo } from 'node:net'
import pg from 'pg'
import { afterAll, beforeAll, expect, it } from 'vitest'
import { CHANGES_CHANNEL } from '../../sandbox/db/postgres-database.js'
import { LOCK_KEYS } from '../../sandbox/db/postgres-lock-keys.js'
import { startSandbox, type RunningSandbox } from '../../sandbox/server.js'
import { merchantShare } from '../../sandbox/webhooks/delivery-claim-repository.js'
import { createTestDatabase, type TestDatabase } from '../../harness/postgres.js'
import { queriesSentBy } from '../../harness/postgres-statements.js'
import { waitFor } from '../../harness/wait.js'

const BUSY_DELIVERIES = 300
const HELD_DELIVERIES = 20

let database: TestDatabase
let sandbox: RunningSandbox
let client: pg.Client
const servers: http.Server[] = []
/** Deliveries received, by the receiver's path. */
const received = new Map<string, number>()

/** A receiver of its own origin (its own share of the per-origin cap) that answers 200 at once. */
async function startReceiver(): Promise<string> {
  const server = http.createServer({ keepAliveTimeout: 60_000 }, (req, res) => {
    req.resume()
    req.on('end', () => {
      received.set(req.url!, (received.get(req.url!) ?? 0) + 1)
      res.writeHead(200).end('ok')
    })
  })
  servers.push(server)
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`
}

beforeAll(async () => {
  database = await createTestDatabase('paybox_contended_claims')
  // No poll: the dispatcher claims only when woken, so each claim it makes is one this test caused.
  sandbox = await startSandbox({ port: 0, db: database.url, log: () => {}, ledgerClose: 'instant', webhookPollMs: 600_000 })
  client = new pg.Client({ connectionString: database.url })
  await client.connect()
})

afterAll(async () => {
  await sandbox?.stop()
  await client?.end()
  for (const server of servers) {
    server.closeAllConnections()
    server.close()
  }
  await database?.drop()
})

/** Queues deliveries of `merchant` to `url`, each about a subject of its own, without waking anyone. */
const queue = (merchant: string, url: string, count: number, prefix: string) =>
  client.query(
    `insert into webhook_deliveries (id, merchant_id, subject_type, subject_id, event_type, url, status, request_payload, attempt_count, created_at, updated_at)
      select gen_random_uuid()::text, $1, 'payment', $4 || i, 'transaction_updated', $2, 'pending', '{}', 1, 0, 0
      from generate_series(1, $3::int) i`,
    [merchant, url, count, prefix],
  )

const pendingOf = async (prefix: string) =>
  Number(
    (await client.query(`select count(*) as n from webhook_deliveries where status = 'pending' and subject_id like $1`, [`${prefix}%`]))
      .rows[0].n,
  )

it('retries a contended share in its next log transaction while it has deliveries on the wire, and waits for it once it has none', async () => {
  const [busy, held] = sandbox.merchants
  const busyUrl = `${await startReceiver()}/busy`
  const heldUrl = `${await startReceiver()}/held`
  // Another replica is filling the held merchant's share.
  await client.query('select pg_advisory_lock($1, hashtext($2))', [LOCK_KEYS.deliveryClaims, merchantShare(held!.id)])
  await queue(busy!.id, busyUrl, BUSY_DELIVERIES, 'pt_busy_')
  await client.query('select pg_notify($1, $2)', [CHANGES_CHANNEL, 'test'])
  await waitFor('the busy merchant’s first deliveries', () => (received.get('/busy') ?? 0) > 0, 10_000)

  // The held merchant's deliveries are found by the log transactions' claims, which try its
  // share. A claim that awaits it is noted with how many busy deliveries had arrived by then.
  const awaitedAt: number[] = []
  let tried = 0
  await queriesSentBy(
    async () => {
      await queue(held!.id, heldUrl, HELD_DELIVERIES, 'pt_held_')
      await waitFor('the busy backlog logged', async () => (await pendingOf('pt_busy_')) === 0, 30_000)
    },
    ({ text }) => {
      if (/pg_advisory_xact_lock\(/.test(text)) awaitedAt.push(received.get('/busy') ?? 0)
      if (/pg_try_advisory_xact_lock\(/.test(text)) tried++
    },
  )
  expect(tried).toBeGreaterThan(0)
  // None while busy deliveries were still going out; at most the one made once none were left.
  expect(awaitedAt.filter((arrived) => arrived < received.get('/busy')!)).toEqual([])

  // Nothing left on the wire: the dispatcher claims in a transaction of its own, which waits for the share.
  expect(received.get('/held') ?? 0).toBe(0)
  await client.query('select pg_advisory_unlock($1, hashtext($2))', [LOCK_KEYS.deliveryClaims, merchantShare(held!.id)])
  await waitFor('the held merchant’s deliveries logged', async () => (await pendingOf('pt_held_')) === 0, 10_000)
  expect(received.get('/held')).toBe(HELD_DELIVERIES)
}, 60_000)
