// `paybox listen --forward-to URL` as a real child process against a sandbox in this process:
// every payment event (webhookUrl or not) reaches the local receiver byte for byte, signed with
// the merchant's secret; a dropped stream resumes after the last event with nothing lost or
// doubled; SIGTERM exits 0.
import path from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { WebhookDelivery } from '../../src/client/types.js'
import type { ForwardedEvent } from '../../src/cli/event-forwarder.js'
import { expectOneLineFailure, linesOf, merchantEnv, runCli, type CliEnv } from '../../harness/cli.js'
import { startRunning, stopRunning, type Running } from '../../harness/long-running-cli.js'
import { startTestSandbox, temporaryDir, type TestSandbox } from '../../harness/sandbox.js'
import { waitFor } from '../../harness/wait.js'
import { startWebhookReceiver, webhookData, type WebhookReceiver } from '../../harness/webhook-receiver.js'
import { expectCommandJson } from '../../harness/json-contract.js'

/** Starts `paybox listen …` and waits until it is subscribed. */
const listen = (args: string[], env: CliEnv): Promise<Running> => startRunning(['listen', ...args], env, 'Ready: forwarding payment events')
const stop = stopRunning

describe('paybox listen', () => {
  let local: WebhookReceiver
  let remote: WebhookReceiver
  const forwardedIds = () => local.received.map((r) => webhookData(r.raw).id)

  beforeAll(async () => {
    local = await startWebhookReceiver('set per test')
    remote = await startWebhookReceiver('set per test')
  })
  afterAll(async () => {
    await local.close()
    await remote.close()
  })

  it('forwards every event byte for byte, signed, resuming after a dropped stream without loss or doubles; SIGTERM exits 0', async () => {
    const db = path.join(temporaryDir(), 'listen.db')
    const first = await startTestSandbox({ db, webhookPollMs: 20 })
    const sandboxes: TestSandbox[] = [first]
    try {
      const secret = first.merchants[0]!.apiSecret
      local.secret = secret
      remote.secret = secret
      const listening = await listen(['--forward-to', local.url], merchantEnv(first))

      // A payment without webhookUrl is forwarded all the same.
      const plain = await first.direct.payments.create({ amount: { value: 500, currency: 'USD' }, description: 'No webhook URL' })
      await waitFor('the plain payment forwarded', () => forwardedIds().includes(plain.id))
      const [forwardedPlain] = local.received
      expect(webhookData(forwardedPlain!.raw)).toMatchObject({ type: 'transaction_created', id: plain.id, status: 'open' })
      expect(forwardedPlain!.verified).toBe(true)
      expect(forwardedPlain!.headers['content-type']).toBe('application/json')
      expect(forwardedPlain!.headers['user-agent']).toMatch(/^paybox-listen\//)
      expect(forwardedPlain!.path).toBe('/webhooks')

      // With a webhookUrl: the forwarded bytes and signature are the ones the sandbox sent.
      const hooked = await first.direct.payments.create({
        amount: { value: 500, currency: 'USD' },
        description: 'Webhooked',
        webhookUrl: remote.url,
      })
      await waitFor('both copies of the event', () => forwardedIds().includes(hooked.id) && remote.received.length === 1)
      const forwarded = local.received.find((r) => webhookData(r.raw).id === hooked.id)!
      const sent = remote.received[0]!
      expect(forwarded.raw.equals(sent.raw)).toBe(true)
      expect(forwarded.headers['x-webhook-auth']).toBe(sent.headers['x-webhook-auth'])
      const [logged] = (await first.direct.webhooks.list({ checkout_id: hooked.id })).items
      expect(forwarded.raw.toString('utf8')).toBe((await first.direct.webhooks.get(logged!.id)).request_payload)

      // One line per event with the local answer.
      const line = await waitFor('the line of the webhooked payment', () => listening.lines.find((l) => l.includes(hooked.id)))
      expect(line).toContain('transaction_created')
      expect(line).toContain(`→ POST ${local.url}`)
      expect(line).toContain('[200]')
      expect(line).toMatch(/\d+ ms$/)

      // The stream drops (the sandbox stops); meanwhile another process of the same sandbox
      // records an event; the sandbox comes back on the same URL.
      // Stopping ends the open stream at once (no grace period for streams).
      await first.stop()
      await waitFor('the drop notice', () => listening.spawned.stderr().includes('Stream dropped'))
      const other = await startTestSandbox({ db, webhookPollMs: 20 })
      sandboxes.push(other)
      const missed = await other.direct.payments.create({ amount: { value: 700, currency: 'USD' }, description: 'While disconnected' })
      await other.direct.sandbox.pay(missed.id, { amount: 300 })
      await other.stop()
      const back = await startTestSandbox({ db, port: first.port, webhookPollMs: 20 })
      sandboxes.push(back)

      await waitFor('the missed events', () => forwardedIds().filter((id) => id === missed.id).length === 2, 20_000)
      const live = await back.direct.payments.create({ amount: { value: 900, currency: 'USD' }, description: 'After the drop' })
      await waitFor('the live event after the drop', () => forwardedIds().includes(live.id))

      expect(local.received.map((r) => `${webhookData(r.raw).id}:${webhookData(r.raw).type}:${webhookData(r.raw).status}`)).toEqual([
        `${plain.id}:transaction_created:open`,
        `${hooked.id}:transaction_created:open`,
        `${missed.id}:transaction_created:open`,
        `${missed.id}:transaction_updated:underpaid`,
        `${live.id}:transaction_created:open`,
      ])
      expect(local.received.every((r) => r.verified)).toBe(true)
      expect(listening.spawned.stderr()).toContain('Reconnected; resuming after the last event forwarded.')

      expect(await stop(listening)).toEqual({ code: 0, signal: null })
      expect(linesOf(listening.lines.join('\n'))).toHaveLength(5)
    } finally {
      for (const sandbox of sandboxes) await sandbox.stop()
    }
  })

  it("--json prints one object per event with the receiver's status, or the connection error, and goes on", async () => {
    const sandbox = await startTestSandbox({ webhookPollMs: 20 })
    try {
      local.secret = sandbox.merchants[0]!.apiSecret
      local.answer = () => ({ status: 500, body: 'not today' })
      const closed = await startWebhookReceiver('unused')
      await closed.close()
      const answering = await listen(['--forward-to', local.url, '--json'], merchantEnv(sandbox))
      const refused = await listen(['--forward-to', closed.url, '--json'], merchantEnv(sandbox))

      const payment = await sandbox.direct.payments.create({ amount: { value: 100, currency: 'USD' }, description: 'JSON lines' })
      await sandbox.direct.sandbox.fail(payment.id)
      const objects = (run: Running) =>
        waitFor('two objects', () => (run.lines.length >= 2 ? run.lines.map((line) => JSON.parse(line) as ForwardedEvent) : undefined))

      const answered = await objects(answering)
      expect(answered.map((e) => [e.checkout_id, e.event_type, e.status, e.error])).toEqual([
        [payment.id, 'transaction_created', 500, null],
        [payment.id, 'transaction_failed', 500, null],
      ])
      expect(answered[1]!.sequence).toBeGreaterThan(answered[0]!.sequence)
      expect(answered[0]!.duration_ms).toBeGreaterThanOrEqual(0)
      expect(answered[0]).not.toHaveProperty('payload')
      for (const line of [...answered, ...(await objects(refused))]) expectCommandJson('listen', line)

      const failures = await objects(refused)
      expect(failures.map((e) => [e.event_type, e.status])).toEqual([
        ['transaction_created', null],
        ['transaction_failed', null],
      ])
      expect(failures[0]!.error).toContain('ECONNREFUSED')

      expect(await stop(answering)).toEqual({ code: 0, signal: null })
      expect(await stop(refused)).toEqual({ code: 0, signal: null })
      // listen only forwards: the sandbox logged no delivery for this payment (it has no webhookUrl).
      expect((await sandbox.direct.webhooks.list({ checkout_id: payment.id })).items).toEqual([] as WebhookDelivery[])
    } finally {
      local.answer = () => ({ status: 200, body: 'ok' })
      await sandbox.stop()
    }
  })

  it('names the merchant whose secret signs what it forwards, masked to its last 4 characters, and how to verify, on stderr', async () => {
    const sandbox = await startTestSandbox({ webhookPollMs: 20 })
    try {
      const [direct, escrow] = sandbox.merchants
      for (const [merchant, mode, json] of [
        [direct!, 'direct', false],
        [escrow!, 'escrow', true],
      ] as const) {
        local.secret = merchant.apiSecret
        const listening = await listen(['--forward-to', local.url, ...(json ? ['--json'] : [])], merchantEnv(sandbox, mode))
        const stderr = listening.spawned.stderr()
        expect(stderr).toContain(
          `Signing with the API secret of merchant ${merchant.name} (${merchant.id}): ${merchant.apiSecret.slice(0, 8)}…${merchant.apiSecret.slice(-4)}\n`,
        )
        expect(stderr).toContain('verifyWebhook(rawBody, signature, secret)')
        expect(stderr).not.toContain(merchant.apiSecret)
        // Before anything is forwarded: stdout holds forwarded events only.
        expect(stderr.indexOf('Signing with')).toBeLessThan(stderr.indexOf('Ready: forwarding'))
        const payment = await sandbox.escrow.payments.create({ amount: { value: 100, currency: 'USD' }, description: 'Signed' })
        if (mode === 'escrow') {
          await waitFor('the forwarded event', () => listening.lines.length >= 1)
          expect(listening.lines.map((line) => (JSON.parse(line) as ForwardedEvent).checkout_id)).toEqual([payment.id])
          expect(local.received.at(-1)!.verified).toBe(true)
        }
        expect(await stop(listening)).toEqual({ code: 0, signal: null })
      }
    } finally {
      await sandbox.stop()
    }
  })

  it('--events forwards only the events named', async () => {
    const sandbox = await startTestSandbox({ webhookPollMs: 20 })
    try {
      local.secret = sandbox.merchants[0]!.apiSecret
      const listening = await listen(['--forward-to', local.url, '--events', 'transaction_failed', '--json'], merchantEnv(sandbox))
      const payment = await sandbox.direct.payments.create({ amount: { value: 100, currency: 'USD' }, description: 'Filtered' })
      await sandbox.direct.sandbox.fail(payment.id)
      // Events come in order: once the failed one is forwarded, the created one was passed over.
      await waitFor('the failed event forwarded', () => listening.lines.length >= 1)
      expect(listening.lines.map((line) => (JSON.parse(line) as ForwardedEvent).event_type)).toEqual(['transaction_failed'])
      expect(local.received.filter((r) => webhookData(r.raw).id === payment.id).map((r) => webhookData(r.raw).type)).toEqual([
        'transaction_failed',
      ])
      expect(await stop(listening)).toEqual({ code: 0, signal: null })
    } finally {
      await sandbox.stop()
    }
  })

  it("warns once, on stderr, when a payment's own webhookUrl is the URL it forwards to", async () => {
    const sandbox = await startTestSandbox({ webhookPollMs: 20 })
    try {
      local.secret = sandbox.merchants[0]!.apiSecret
      const listening = await listen(['--forward-to', local.url], merchantEnv(sandbox))
      const plain = await sandbox.direct.payments.create({ amount: { value: 100, currency: 'USD' }, description: 'Only forwarded' })
      const doubled = await sandbox.direct.payments.create({
        amount: { value: 100, currency: 'USD' },
        description: 'Twice',
        webhookUrl: local.url,
      })
      const again = await sandbox.direct.payments.create({
        amount: { value: 100, currency: 'USD' },
        description: 'Twice again',
        webhookUrl: local.url,
      })
      await waitFor(
        "both copies of the last payment's event",
        () => local.received.filter((r) => webhookData(r.raw).id === again.id).length === 2,
      )
      const warnings = linesOf(listening.spawned.stderr()).filter((line) => line.startsWith('Warning:'))
      expect(warnings).toEqual([
        `Warning: payment ${doubled.id} sends its webhooks to ${local.url} itself, and listen forwards them there too: ` +
          'your receiver gets each of its events twice (use listen or a webhookUrl, not both)',
      ])
      expect(warnings.join('')).not.toContain(plain.id)
      expect(await stop(listening)).toEqual({ code: 0, signal: null })
    } finally {
      await sandbox.stop()
    }
  })

  describe('refuses bad flags in one line', () => {
    it('an --events name that is not an event', async () => {
      expectOneLineFailure(
        await runCli(['listen', '--forward-to', 'http://127.0.0.1:9/hooks', '--events', 'transaction_updatd'], env()),
        'Expected --events=transaction_updatd to be one of: transaction_created, transaction_updated, transaction_failed (see --help)',
      )
    })

    const env = () => ({ CI: '1', PAYBOX_HOME: temporaryDir(), PAYBOX_CONFIG_DIR: temporaryDir() })

    it('a --forward-to that is not an http(s) URL', async () => {
      for (const url of ['ftp://localhost/hooks', 'localhost:3000/webhooks', 'not a url']) {
        expectOneLineFailure(
          await runCli(['listen', '--forward-to', url], env()),
          `--forward-to must be an absolute http(s) URL, got "${url}"`,
        )
      }
    })

    it('no --forward-to', async () => {
      const result = await runCli(['listen'], env())
      expect(result.exitCode).toBe(1)
      expect(linesOf(result.stderr)).toHaveLength(1)
      expect(result.stderr).toContain('Missing required flag forward-to')
    })
  })
})
