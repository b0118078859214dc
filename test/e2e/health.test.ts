// GET /health covers the parts a sandbox needs: the database answers, the ledger's supply adds
// up, and the webhook dispatcher gets through its queue. Each broken part turns it into a 503
// that names the part.
import { afterEach, describe, expect, it } from 'vitest'
import { sqliteHandleOf } from '../../sandbox/db/database.js'
import type { RunningSandbox, SandboxOptions } from '../../sandbox/server.js'
import { PayboxClient } from '../../src/client/paybox-client.js'
import { queryFromOutside } from '../../harness/outside-db.js'
import { rawRequest, startTestSandbox, testBackend, type TestSandbox } from '../../harness/sandbox.js'
import { waitFor } from '../../harness/wait.js'
import { startWebhookReceiver } from '../../harness/webhook-receiver.js'

const started: TestSandbox[] = []
afterEach(async () => {
  await Promise.all(started.splice(0).map((sandbox) => sandbox.stop()))
})

/** A sandbox on a fresh database of the suite's backend (a file, or a PostgreSQL database). */
async function start(options: Partial<SandboxOptions> = {}): Promise<TestSandbox> {
  const sandbox = await startTestSandbox(options)
  started.push(sandbox)
  return sandbox
}

const health = (sandbox: RunningSandbox) => rawRequest(sandbox.url, { method: 'GET', path: '/health' })

describe('GET /health', () => {
  it('answers 200 with every check ok, without auth', async () => {
    const sandbox = await start()
    const response = await health(sandbox)
    expect(response.status).toBe(200)
    expect(response.json).toEqual({
      status: 'ok',
      checks: {
        database: { status: 'ok', detail: testBackend === 'postgres' ? 'PostgreSQL, leading' : 'SQLite' },
        ledger: { status: 'ok', detail: expect.stringMatching(/^ledger \d+ open$/) },
        webhooks: { status: 'ok', detail: 'no deliveries waiting' },
      },
      sandbox: { shared: false, replicated: testBackend === 'postgres' },
    })
    expect(await new PayboxClient({ baseUrl: sandbox.url }).sandbox.health()).toEqual(response.json)
  })

  it('says a sandbox started with --shared is shared: clients on other machines isolate their scenario runs there', async () => {
    const sandbox = await start({ shared: true })
    expect((await health(sandbox)).json).toMatchObject({ sandbox: { shared: true, replicated: testBackend === 'postgres' } })
  })

  it('answers 503 naming the dispatcher when deliveries wait and none finishes', async () => {
    const sandbox = await start({ webhookTimeoutMs: 100 })
    const receiver = await startWebhookReceiver(sandbox.merchants[0]!.apiSecret)
    try {
      await sandbox.webhookDispatcher.stop()
      const [merchant] = sandbox.merchants
      const client = new PayboxClient({ baseUrl: sandbox.url, apiKey: merchant!.apiKey, apiSecret: merchant!.apiSecret })
      await client.payments.create({ amount: { value: 100, currency: 'USD' }, description: 'Never delivered', webhookUrl: receiver.url })
      // The first look only starts watching the waiting delivery; a later one sees it stuck.
      expect((await health(sandbox)).status).toBe(200)
      const stuck = await waitFor('a 503', async () => {
        const response = await health(sandbox)
        return response.status === 503 && response
      })
      expect(stuck.json).toMatchObject({
        statusCode: 503,
        reason: 'Service Unavailable',
        message: expect.stringMatching(/^webhooks: the webhook dispatcher is stuck: 1 delivery waiting, none finished for \d+ s$/),
        checks: { database: { status: 'ok' }, ledger: { status: 'ok' }, webhooks: { status: 'failing' } },
      })
      expect(receiver.received).toHaveLength(0)
    } finally {
      await receiver.close()
    }
  })

  it('answers 503 naming the ledger when its supply does not add up', async () => {
    const sandbox = await start()
    // Text on SQLite (its TEXT column stores the sum as text), numeric on PostgreSQL.
    await queryFromOutside(sandbox.dbFile, "update ledger_accounts set usdc_balance = usdc_balance + 1 where role = 'customer'")
    const response = await health(sandbox)
    expect(response.status).toBe(503)
    expect(response.json).toMatchObject({
      statusCode: 503,
      reason: 'Service Unavailable',
      message: expect.stringContaining('ledger: '),
      checks: { database: { status: 'ok' }, ledger: { status: 'failing', detail: expect.stringContaining('differs from USDC issued') } },
    })
  })

  // The database closed under the running sandbox (test/postgres/outage.test.ts stops a PostgreSQL server instead).
  it('answers 503 naming the database when it is gone', async () => {
    const sandbox = await start()
    if (testBackend === 'sqlite') sqliteHandleOf(sandbox.context.db).close()
    else await sandbox.context.db.destroy()
    const response = await health(sandbox)
    expect(response.status).toBe(503)
    expect(response.json).toMatchObject({
      statusCode: 503,
      message: expect.stringMatching(/^database: (The database connection is not open|driver has already been destroyed)/),
      checks: { database: { status: 'failing' }, ledger: { status: 'failing' }, webhooks: { status: 'failing' } },
    })
  })
})
