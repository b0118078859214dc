// Webhook egress on a shared sandbox: targets on loopback, private and link-local addresses are
// refused at creation with a 400 naming --allow-webhook-to, and at send time on the address
// actually connected to (a name that resolves to this host), so no answer of an internal service
// is ever stored. --allow-webhook-to opens ranges or hosts; a local sandbox keeps localhost working.
import http from 'node:http'
import type { AddressInfo } from 'node:net'
import os from 'node:os'
import path from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import type { WebhookDelivery } from '../../src/client/types.js'
import { addressForms, REFUSED_RANGES } from '../../harness/address-forms.js'
import { SandboxConfigError } from '../../sandbox/server.js'
import { rawRequest, startTestSandbox, temporaryDir, type TestSandbox } from '../../harness/sandbox.js'
import { waitFor } from '../../harness/wait.js'

/** An "internal service": answers every request with a secret, counting them. */
async function startInternalService(): Promise<{ port: number; hits: () => number; close: () => Promise<void> }> {
  let hits = 0
  const server = http.createServer((_req, res) => {
    hits++
    res.writeHead(200, { 'content-type': 'text/plain' }).end('internal secret')
  })
  // Every interface, so a name resolving to any local address reaches it.
  await new Promise<void>((resolve) => server.listen(0, resolve))
  return {
    port: (server.address() as AddressInfo).port,
    hits: () => hits,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  }
}

const paymentWith = (webhookUrl: string) => JSON.stringify({ amount: { value: 100, currency: 'USD' }, description: 'Egress', webhookUrl })

describe('webhook egress', () => {
  const stops: Array<() => Promise<void>> = []
  afterAll(async () => {
    for (const stop of stops.reverse()) await stop()
  })
  const started = async (options: Parameters<typeof startTestSandbox>[0]) => {
    const sandbox = await startTestSandbox({ webhookTimeoutMs: 2_000, webhookPollMs: 20, ...options })
    stops.push(() => sandbox.stop())
    return sandbox
  }
  const internal = async () => {
    const service = await startInternalService()
    stops.push(service.close)
    return service
  }
  const deliveriesOf = async (sandbox: TestSandbox, paymentId: string) => {
    const merchantId = sandbox.merchants[0]!.id
    const { items } = await sandbox.direct.request<{ items: WebhookDelivery[] }>('GET', `/merchants/${merchantId}/webhook-logs`, {
      query: { checkout_id: paymentId },
    })
    return Promise.all(
      items.map((item) => sandbox.direct.request<WebhookDelivery>('GET', `/merchants/${merchantId}/webhook-logs/${item.id}`)),
    )
  }

  it('refuses internal webhook targets at creation on a shared sandbox, with a 400 naming --allow-webhook-to', async () => {
    const sandbox = await started({ shared: true })
    const before = (await sandbox.direct.payments.list()).meta.totalItems
    for (const url of [
      'http://127.0.0.1:8080/hook',
      'http://localhost:3000/hook',
      'http://api.localhost/hook',
      'http://10.1.2.3/hook',
      'http://172.20.0.1/hook',
      'http://192.168.1.1/hook',
      'http://169.254.169.254/latest/meta-data',
      'http://[::1]:9000/hook',
      'http://[fd00::1]/hook',
      'http://[fe80::1]/hook',
      'http://[::ffff:127.0.0.1]/hook',
      'http://0.0.0.0:8080/',
    ]) {
      const answer = await rawRequest(sandbox.url, { method: 'POST', path: '/payments', body: paymentWith(url), as: sandbox.merchants[0] })
      expect(answer.status, url).toBe(400)
      expect((answer.json as { message: string }).message, url).toMatch(/^webhookUrl: .*--allow-webhook-to/)
    }
    expect((await sandbox.direct.payments.list()).meta.totalItems).toBe(before)
    // Public receivers are fine.
    const accepted = await rawRequest(sandbox.url, {
      method: 'POST',
      path: '/payments',
      body: paymentWith('https://hooks.example.com/paybox'),
      as: sandbox.merchants[0],
    })
    expect(accepted.status).toBe(200)
  })

  it('refuses at send time a name that resolves to this host, storing no answer', async () => {
    const service = await internal()
    const sandbox = await started({ shared: true })
    // The machine's own name passes the URL check and resolves to a local address.
    const payment = await sandbox.direct.payments.create({
      amount: { value: 100, currency: 'USD' },
      description: 'Rebinding',
      webhookUrl: `http://${os.hostname()}:${service.port}/admin`,
    })
    const [delivery] = await waitFor('the refused delivery', async () => {
      const entries = await deliveriesOf(sandbox, payment.id)
      return entries.length > 0 && entries.every((entry) => entry.status !== 'pending') ? entries : undefined
    })
    expect(delivery).toMatchObject({ status: 'skipped', http_status: null, response_body: null })
    expect(delivery!.error_message).toMatch(
      /is (an internal address \(ipaddr\.js range \w+\)|this host's own address): .*--allow-webhook-to/,
    )
    expect(service.hits()).toBe(0)
  })

  it('refuses at send time a delivery to an internal address queued before the sandbox was shared', async () => {
    const service = await internal()
    const db = path.join(temporaryDir(), 'egress.db')
    const local = await startTestSandbox({ db, webhookTimeoutMs: 2_000, webhookPollMs: 20 })
    const payment = await local.direct.payments.create({
      amount: { value: 100, currency: 'USD' },
      description: 'Local',
      webhookUrl: `http://127.0.0.1:${service.port}/admin`,
    })
    await waitFor('the local delivery', () => service.hits() === 1)
    await local.stop()

    const shared = await started({ db, shared: true })
    const [original] = await deliveriesOf(shared, payment.id)
    const resent = await shared.direct.webhooks.resend(original!.id)
    expect(resent).toMatchObject({ status: 'skipped', http_status: null, response_body: null })
    expect(resent.error_message).toContain('--allow-webhook-to')
    expect(service.hits()).toBe(1)
  })

  it('refuses at send time every reserved range, in two forms each, under the policy a restart with --shared stored', async () => {
    const db = path.join(temporaryDir(), 'ranges.db')
    const local = await startTestSandbox({ db, webhookTimeoutMs: 2_000, webhookPollMs: 20 })
    // Queued, not sent: the local sandbox's sender is stopped, so the deliveries wait in the outbox.
    await local.webhookDispatcher.stop()
    const urls = REFUSED_RANGES.flatMap(({ samples }) => {
      const forms = addressForms(samples[0]!)
      return [forms[0]!, forms.at(-1)!].map(({ form }) => `http://${form}:9/hook`)
    })
    const payments: Array<{ id: string }> = []
    for (const webhookUrl of urls)
      payments.push(await local.direct.payments.create({ amount: { value: 100, currency: 'USD' }, description: 'Range', webhookUrl }))
    await local.stop()

    const lines: string[] = []
    const shared = await started({ db, shared: true, log: (line) => lines.push(line) })
    expect(lines).toContain(
      "Note: the sandbox's webhook egress policy was local (no --shared: webhooks may go to any address); it is now --shared",
    )
    const sent = await waitFor('every queued delivery', async () => {
      const entries = (await Promise.all(payments.map((payment) => deliveriesOf(shared, payment.id)))).flat()
      return entries.length === urls.length && entries.every((entry) => entry.status !== 'pending') ? entries : undefined
    })
    const notRefused = sent.filter(
      (entry) => entry.status !== 'skipped' || !/^Not sent: .*--allow-webhook-to/.test(entry.error_message ?? ''),
    )
    expect(notRefused.map((entry) => entry.url)).toEqual([])
  })

  it("keeps the sandbox's policy across a restore of a snapshot taken while it was local", async () => {
    const dir = temporaryDir()
    const options = { db: path.join(dir, 'restore.db'), snapshotDir: path.join(dir, 'snapshots') }
    const local = await startTestSandbox(options)
    await local.admin.snapshots.save({ name: 'local' })
    await local.stop()
    const shared = await started({ ...options, shared: true })
    await shared.admin.snapshots.restore('local')
    const answer = await rawRequest(shared.url, {
      method: 'POST',
      path: '/payments',
      body: paymentWith('http://10.0.0.1/hook'),
      as: shared.merchants[0],
    })
    expect(answer.status).toBe(400)
  })

  it('sends to internal targets --allow-webhook-to names, by range or by host', async () => {
    const service = await internal()
    for (const allow of [['127.0.0.0/8'], [os.hostname()]]) {
      const sandbox = await started({ shared: true, allowWebhookTo: allow })
      const host = allow[0] === os.hostname() ? os.hostname() : '127.0.0.1'
      const before = service.hits()
      await sandbox.direct.payments.create({
        amount: { value: 100, currency: 'USD' },
        description: 'Allowed',
        webhookUrl: `http://${host}:${service.port}/hook`,
      })
      await waitFor(`a delivery allowed by ${allow[0]}`, () => service.hits() > before)
    }
  })

  it('keeps localhost receivers working on a local sandbox', async () => {
    const service = await internal()
    const sandbox = await started({})
    await sandbox.direct.payments.create({
      amount: { value: 100, currency: 'USD' },
      description: 'Local',
      webhookUrl: `http://localhost:${service.port}/hook`,
    })
    await waitFor('the local delivery', () => service.hits() === 1)
  })

  it('refuses a malformed --allow-webhook-to entry before starting', async () => {
    for (const entry of ['10.0.0.0/33', 'not a host', '10.0.0.0/8/1', 'host:8080', '']) {
      const failure = await startTestSandbox({ shared: true, allowWebhookTo: [entry] }).then(
        (sandbox) => sandbox.stop(),
        (e: unknown) => e,
      )
      expect(failure, entry).toBeInstanceOf(SandboxConfigError)
      expect((failure as Error).message).toContain('--allow-webhook-to')
    }
  })
})
