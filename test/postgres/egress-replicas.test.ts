// The webhook egress policy across replicas (issue 29): it is the sandbox's, stored in the database.
// A replica with local defaults cannot join a shared one (or the reverse) while the other serves:
// it is refused in one line naming both policies. And a webhookUrl whose host name resolves to
// this host is never delivered, by the replica that leads or by the one that takes over from it,
// even after a restore of a snapshot taken while the sandbox was local.
import http from 'node:http'
import type { AddressInfo } from 'node:net'
import os from 'node:os'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { WebhookDelivery } from '../../src/client/types.js'
import { isLeader } from '../../sandbox/db/database.js'
import { SandboxConfigError } from '../../sandbox/server.js'
import { createTestDatabase, type TestDatabase } from '../../harness/postgres.js'
import { rawRequest, startTestSandbox, type TestSandbox } from '../../harness/sandbox.js'
import { waitFor } from '../../harness/wait.js'

const LOCAL = 'local (no --shared: webhooks may go to any address)'

describe('the webhook egress policy of two replicas on PostgreSQL', () => {
  let database: TestDatabase
  let internal: http.Server
  let hits = 0
  const running: TestSandbox[] = []

  const replica = async (options: Parameters<typeof startTestSandbox>[0], log?: (line: string) => void) => {
    const sandbox = await startTestSandbox({ db: database.url, webhookTimeoutMs: 2_000, webhookPollMs: 20, ...options, log })
    running.push(sandbox)
    return sandbox
  }
  const stop = async (sandbox: TestSandbox) => {
    running.splice(running.indexOf(sandbox), 1)
    await sandbox.stop()
  }
  const refusalOf = (options: Parameters<typeof startTestSandbox>[0]) =>
    startTestSandbox({ db: database.url, ...options }).then(
      async (sandbox) => {
        await sandbox.stop()
        return undefined
      },
      (error: unknown) => error as Error,
    )
  /** A payment created through `via` whose webhookUrl names this machine, and its delivery once sent (or refused). */
  // Each request its own body: a shared sandbox refuses a signature it has seen (docs/security.md).
  let attempts = 0
  const deliveryToThisHost = async (via: TestSandbox): Promise<WebhookDelivery> => {
    const payment = await via.direct.payments.create({
      amount: { value: 100, currency: 'USD' },
      description: `Rebinding ${++attempts}`,
      webhookUrl: `http://${os.hostname()}:${(internal.address() as AddressInfo).port}/admin`,
    })
    const merchantId = via.merchants[0]!.id
    return waitFor('the delivery, sent or refused', async () => {
      const { items } = await via.direct.request<{ items: WebhookDelivery[] }>('GET', `/merchants/${merchantId}/webhook-logs`, {
        query: { checkout_id: payment.id },
      })
      const entry = items[0] && (await via.direct.request<WebhookDelivery>('GET', `/merchants/${merchantId}/webhook-logs/${items[0].id}`))
      return entry && entry.status !== 'pending' ? entry : undefined
    })
  }

  beforeAll(async () => {
    database = await createTestDatabase('paybox_egress')
    // An "internal service" on every interface: a name resolving to any address of this host reaches it.
    internal = http.createServer((_req, res) => {
      hits++
      res.writeHead(200, { 'content-type': 'text/plain' }).end('internal secret')
    })
    await new Promise<void>((resolve) => internal.listen(0, resolve))
  })
  afterAll(async () => {
    for (const sandbox of running.reverse()) await sandbox.stop()
    await new Promise<void>((resolve) => internal.close(() => resolve()))
    await database?.drop()
  })

  it('refuses a --shared replica joining a local one, in one line naming both policies', async () => {
    const b = await replica({})
    // Restored later under --shared: the policy is the sandbox's, not part of the state a snapshot holds.
    await b.admin.snapshots.save({ name: 'while-local' })
    const failure = await refusalOf({ shared: true })
    expect(failure).toBeInstanceOf(SandboxConfigError)
    expect(failure!.message).toBe(
      `This replica's webhook egress policy (--shared) differs from the sandbox's, which the running replicas enforce (${LOCAL}): ` +
        'start it with the same flags, or stop every replica to change it',
    )
    await stop(b)
  })

  it('lets a lone start change the policy and say so, then refuses a local replica and one with other exceptions', async () => {
    const lines: string[] = []
    const a = await replica({ shared: true }, (line) => lines.push(line))
    expect(lines).toContain(`Note: the sandbox's webhook egress policy was ${LOCAL}; it is now --shared`)
    expect((await refusalOf({}))!.message).toMatch(
      /^This replica's webhook egress policy \(local .*\) differs from the sandbox's, .* \(--shared\)/,
    )
    expect((await refusalOf({ shared: true, allowWebhookTo: ['127.0.0.0/8'] }))!.message).toMatch(
      /^This replica's webhook egress policy \(--shared --allow-webhook-to 127\.0\.0\.0\/8\) differs/,
    )
    expect(isLeader(a.context.db)).toBe(true)
  })

  it('never delivers to a name that resolves to this host, whichever replica creates, sends or takes over', async () => {
    const [a] = running
    const b = await replica({ shared: true })
    await a!.admin.snapshots.restore('while-local')
    // Refused at creation by both, by the stored policy.
    for (const [index, sandbox] of [a!, b].entries()) {
      const answer = await rawRequest(sandbox.url, {
        method: 'POST',
        path: '/payments',
        body: JSON.stringify({
          amount: { value: 100, currency: 'USD' },
          description: `Loopback ${index}`,
          webhookUrl: 'http://localhost:8080/',
        }),
        as: sandbox.merchants[0],
      })
      expect(answer.status).toBe(400)
    }
    // Created through the replica that does not lead, refused by the one that sends.
    const first = await deliveryToThisHost(b)
    expect(first).toMatchObject({ status: 'skipped', http_status: null, response_body: null })
    expect(first.error_message).toMatch(/^Not sent: .*--allow-webhook-to/)

    // After a failover, the other replica sends, under the same stored policy.
    await stop(a!)
    await waitFor('the second replica leading', () => isLeader(b.context.db))
    const second = await deliveryToThisHost(b)
    expect(second).toMatchObject({ status: 'skipped', http_status: null, response_body: null })
    expect(hits).toBe(0)
  })
})
