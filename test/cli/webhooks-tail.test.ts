// `paybox webhooks tail` as a real child process (node bin/dev.js) against a sandbox in this
// process: a line per finished delivery, in colour on request, NDJSON with --json, reconnection
// when the stream drops, and exit 0 on SIGTERM.
import path from 'node:path'
import { describe, expect, it } from 'vitest'
import type { Payment, WebhookDelivery } from '../../src/client/types.js'
import { expectOneLineFailure, linesOf, merchantEnv, runCli, spawnCli, type CliEnv } from '../../harness/cli.js'
import { startRunning, stopRunning, type Running } from '../../harness/long-running-cli.js'
import { sandboxForSuite, startTestSandbox, temporaryDir, type TestSandbox } from '../../harness/sandbox.js'
import { waitFor } from '../../harness/wait.js'
import { webhookReceiverForSuite } from '../../harness/webhook-receiver.js'
import { expectCommandJson } from '../../harness/json-contract.js'

/** Starts `paybox webhooks tail …` and waits until it is subscribed. */
const tail = (args: string[], env: CliEnv): Promise<Running> =>
  startRunning(['webhooks', 'tail', ...args], env, 'Waiting for webhook deliveries')
const stop = stopRunning

describe('paybox webhooks tail', () => {
  const sandbox = sandboxForSuite({ webhookPollMs: 20 })
  const receiver = webhookReceiverForSuite(() => sandbox.merchants[0]!.apiSecret)
  const create = (): Promise<Payment> =>
    sandbox.direct.payments.create({ amount: { value: 1000, currency: 'USD' }, description: 'Tailed', webhookUrl: receiver.url })

  it('prints a coloured line per finished delivery: green success, red failed, yellow skipped; exits 0 on SIGTERM', async () => {
    const running = await tail([], merchantEnv(sandbox, 'direct', { FORCE_COLOR: '1' }))
    const lineFor = (paymentId: string, event: string) =>
      waitFor(`the ${event} line of ${paymentId}`, () => running.lines.find((line) => line.includes(paymentId) && line.includes(event)))

    const ok = await create()
    const success = await lineFor(ok.id, 'transaction_created')
    expect(success).toContain('\u001b[32msuccess')
    expect(success).toMatch(/ 200 /)
    expect(success).toMatch(/\d+ ms/)
    const [logged] = (await sandbox.direct.webhooks.list({ checkout_id: ok.id })).items
    expect(success).toContain(logged!.id)

    receiver.answer = () => ({ status: 500, body: 'broken' })
    const broken = await create()
    const failed = await lineFor(broken.id, 'transaction_created')
    expect(failed).toContain('\u001b[31mfailed')
    expect(failed).toMatch(/ 500 /)
    expect(failed).toContain('The receiver answered HTTP 500')

    await sandbox.direct.webhooks.pause()
    try {
      const paused = await create()
      const skipped = await lineFor(paused.id, 'transaction_created')
      expect(skipped).toContain('\u001b[33mskipped')
      expect(skipped).toContain('Not sent: webhooks are paused for this merchant')
    } finally {
      await sandbox.direct.webhooks.resume()
    }

    expect(await stop(running)).toEqual({ code: 0, signal: null })
    expect(linesOf(running.spawned.stderr())).toEqual([`Waiting for webhook deliveries from ${sandbox.url} (Ctrl+C to stop)`])
  })

  it('--json prints one JSON object per line: the full log entry', async () => {
    const running = await tail(['--json'], merchantEnv(sandbox))
    const payment = await create()
    await sandbox.direct.sandbox.pay(payment.id, { amount: 400 })
    const entries = await waitFor('two deliveries on stdout', () => {
      const parsed = running.lines.map((line) => JSON.parse(line) as WebhookDelivery).filter((d) => d.checkout_id === payment.id)
      return parsed.length >= 2 ? parsed : undefined
    })
    expect(entries.map((e) => e.event_type)).toEqual(['transaction_created', 'transaction_updated'])
    for (const entry of entries) {
      expect(entry).toEqual(await sandbox.direct.webhooks.get(entry.id))
      expect(entry.status).toBe('success')
      expectCommandJson('webhooks:tail', entry)
    }
    expect(await stop(running)).toEqual({ code: 0, signal: null })
  })

  it('--events shows only the events named', async () => {
    const running = await tail(['--events', 'transaction_updated,transaction_failed', '--json'], merchantEnv(sandbox))
    const payment = await create()
    // The created event's delivery finishes first: the stream, in finishing order, would show it before the next.
    await waitFor('the created delivery to finish', async () =>
      (await sandbox.direct.webhooks.list({ checkout_id: payment.id })).items.every((d) => d.status !== 'pending'),
    )
    await sandbox.direct.sandbox.pay(payment.id, { amount: 400 })
    await sandbox.direct.sandbox.fail(payment.id)
    const shown = () => running.lines.map((line) => JSON.parse(line) as WebhookDelivery).filter((d) => d.checkout_id === payment.id)
    await waitFor('the failed delivery on stdout', () => shown().some((d) => d.event_type === 'transaction_failed'))
    expect(shown().map((d) => d.event_type)).toEqual(['transaction_updated', 'transaction_failed'])
    expect(await stop(running)).toEqual({ code: 0, signal: null })
  })

  it('--events refuses a name that is not an event in one line', async () => {
    expectOneLineFailure(
      await runCli(['webhooks', 'tail', '--events', 'transaction_updated,transaction_refunded'], merchantEnv(sandbox)),
      'Expected --events=transaction_refunded to be one of: transaction_created, transaction_updated, transaction_failed (see --help)',
    )
  })

  it('reconnects when the stream drops and keeps printing', async () => {
    const db = path.join(temporaryDir(), 'tail-restart.db')
    const first = await startTestSandbox({ db, webhookPollMs: 20 })
    let second: TestSandbox | undefined
    try {
      const env = merchantEnv(first)
      const running = await tail([], env)
      const before = await first.direct.payments.create({
        amount: { value: 100, currency: 'USD' },
        description: 'Before',
        webhookUrl: receiver.url,
      })
      receiver.secret = first.merchants[0]!.apiSecret
      await waitFor('the line before the drop', () => running.lines.some((line) => line.includes(before.id)))

      // Stopping ends the open stream at once (no grace period for streams).
      await first.stop()
      await waitFor('the drop notice', () => running.spawned.stderr().includes('Stream dropped'))
      second = await startTestSandbox({ db, port: first.port, webhookPollMs: 20 })
      await waitFor('the reconnection', () => running.spawned.stderr().includes('Reconnected.'), 20_000)
      const after = await second.direct.payments.create({
        amount: { value: 100, currency: 'USD' },
        description: 'After',
        webhookUrl: receiver.url,
      })
      const line = await waitFor('the line after the drop', () => running.lines.find((l) => l.includes(after.id)))
      expect(line).toContain('success')
      expect(await stop(running)).toEqual({ code: 0, signal: null })
    } finally {
      receiver.secret = sandbox.merchants[0]!.apiSecret
      await second?.stop()
      await first.stop()
    }
  })

  it('fails in one line when the credentials are refused', async () => {
    const spawned = spawnCli(['webhooks', 'tail'], merchantEnv(sandbox, 'direct', { PAYBOX_API_SECRET: 'sk_test_wrong' }))
    try {
      // It exits by itself; a tail that kept running would fail the test by timing out.
      expect((await spawned.exited).code).toBe(1)
      expect(linesOf(spawned.stderr())).toHaveLength(1)
      expect(spawned.stderr()).toMatch(/^Error: 401 /)
    } finally {
      if (spawned.child.exitCode === null) spawned.child.kill('SIGKILL')
    }
  })
})
