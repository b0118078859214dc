// `paybox webhooks list|get|resend|pause|resume` and `paybox merchants rotate-secret`, run
// in-process against a real sandbox that delivers to a real receiver: every test checks what
// the receiver got and what the sandbox logged, not only what the CLI printed.
import fs from 'node:fs'
import path from 'node:path'
import { beforeAll, describe, expect, it } from 'vitest'
import { PayboxClient } from '../../src/client/paybox-client.js'
import type { Page, Payment, SandboxMerchant, WebhookDelivery, WebhooksPausedState } from '../../src/client/types.js'
import { writeLocalSandbox } from '../../src/config/local-sandbox.js'
import { saveProfile } from '../../src/config/profiles.js'
import { expectOneLineFailure, linesOf, merchantEnv, runCli, runCliJson, spawnCli, type CliEnv } from '../../harness/cli.js'
import { sandboxForSuite, startTestSandbox, temporaryDir } from '../../harness/sandbox.js'
import { spawnSandbox } from '../../harness/sandbox-process.js'
import { waitFor } from '../../harness/wait.js'
import { receivedFor, startWebhookReceiver, webhookReceiverForSuite } from '../../harness/webhook-receiver.js'

/** The payment's deliveries once none is pending, oldest first. */
async function finishedDeliveries(client: PayboxClient, paymentId: string, count: number): Promise<WebhookDelivery[]> {
  return waitFor(`${count} finished deliveries of ${paymentId}`, async () => {
    const { items } = await client.webhooks.list({ checkout_id: paymentId, limit: 100 })
    return items.length >= count && items.every((item) => item.status !== 'pending') ? items.reverse() : undefined
  })
}

describe('paybox webhooks: the delivery log', () => {
  const sandbox = sandboxForSuite({ webhookPollMs: 20, webhookTimeoutMs: 300 })
  const receiver = webhookReceiverForSuite(() => sandbox.merchants[0]!.apiSecret)
  const env = () => merchantEnv(sandbox)
  const create = (webhookUrl: string | undefined = receiver.url): Promise<Payment> =>
    sandbox.direct.payments.create({ amount: { value: 1000, currency: 'USD' }, description: 'Webhooked', webhookUrl })

  describe('webhooks list', () => {
    it('shows the deliveries of a payment newest first, and --json is the log page as the server has it', async () => {
      const payment = await create()
      await sandbox.direct.sandbox.pay(payment.id, { amount: 400 })
      const deliveries = await finishedDeliveries(sandbox.direct, payment.id, 2)

      const { json, exitCode, stderr } = await runCliJson<Page<WebhookDelivery>>(['webhooks', 'list', '--payment', payment.id], env())
      expect(exitCode).toBe(0)
      expect(stderr).toBe('')
      expect(json).toEqual(await sandbox.direct.webhooks.list({ checkout_id: payment.id }))
      expect(json.items.map((d) => d.id)).toEqual(deliveries.map((d) => d.id).reverse())
      expect(json.items.map((d) => d.event_type)).toEqual(['transaction_updated', 'transaction_created'])

      const human = await runCli(['webhooks', 'list', '--payment', payment.id], env())
      expect(human.exitCode).toBe(0)
      const rows = linesOf(human.stdout).filter((line) => line.includes(payment.id))
      expect(rows).toHaveLength(2)
      expect(rows[0]).toContain('transaction_updated')
      expect(rows[0]).toContain('success')
      expect(rows[0]).toContain('200')
      expect(rows[0]).toContain(deliveries[1]!.id)
      expect(rows[1]).toContain('transaction_created')
      expect(linesOf(human.stdout).at(-1)).toBe('Page 1 of 1 (2 deliveries)')
    })

    it('--status keeps only deliveries with that status; --page and --limit page', async () => {
      receiver.answer = () => ({ status: 500, body: 'nope' })
      const failing = await create()
      await finishedDeliveries(sandbox.direct, failing.id, 1)

      const failed = await runCliJson<Page<WebhookDelivery>>(['webhooks', 'list', '--status', 'failed', '--limit', '100'], env())
      expect(failed.exitCode).toBe(0)
      expect(failed.json.items.length).toBeGreaterThan(0)
      expect(failed.json.items.every((d) => d.status === 'failed')).toBe(true)
      expect(failed.json.items.map((d) => d.checkout_id)).toContain(failing.id)

      const second = await runCliJson<Page<WebhookDelivery>>(['webhooks', 'list', '--limit', '1', '--page', '2'], env())
      expect(second.json.meta).toMatchObject({ itemsPerPage: 1, currentPage: 2 })
      expect(second.json.items).toEqual((await sandbox.direct.webhooks.list({ limit: 1, page: 2 })).items)
    })

    it('refuses an unknown --status and a --limit over 100 in one line, before calling the API', async () => {
      const status = await runCli(['webhooks', 'list', '--status', 'lost'], env())
      expectOneLineFailure(status, 'Expected --status=lost to be one of: pending, success, failed, skipped (see --help)')
      const limit = await runCli(['webhooks', 'list', '--limit', '101'], env())
      expectOneLineFailure(limit, 'Parsing --limit: Expected an integer less than or equal to 100 but received: 101 (see --help)')
    })
  })

  describe('webhooks get', () => {
    it('shows every field, the payload sent as pretty JSON, and the answer; --json has the exact bytes sent', async () => {
      receiver.answer = () => ({ status: 202, body: 'accepted by the test' })
      const payment = await create()
      const [delivery] = await finishedDeliveries(sandbox.direct, payment.id, 1)
      const [received] = receivedFor(receiver, payment.id)

      const { json, exitCode } = await runCliJson<WebhookDelivery>(['webhooks', 'get', delivery!.id], env())
      expect(exitCode).toBe(0)
      expect(Buffer.from(json.request_payload!, 'utf8').equals(received!.raw)).toBe(true)
      expect(json).toMatchObject({
        id: delivery!.id,
        checkout_id: payment.id,
        status: 'success',
        http_status: 202,
        response_body: 'accepted by the test',
      })

      const human = await runCli(['webhooks', 'get', delivery!.id], env())
      expect(human.exitCode).toBe(0)
      expect(human.stderr).toBe('')
      for (const value of [
        delivery!.id,
        payment.id,
        receiver.url,
        'transaction_created',
        'success',
        '202',
        'open/open',
        'accepted by the test',
      ]) {
        expect(human.stdout).toContain(value)
      }
      // The payload, indented: each top-level field of data on its own line.
      expect(human.stdout).toContain(`\n{\n  "data": {\n    "type": "transaction_created",\n    "id": "${payment.id}",\n`)
    })

    it("an unknown id is the server's 404, in one line", async () => {
      const result = await runCli(['webhooks', 'get', '00000000-0000-5000-8000-000000000000'], env())
      expectOneLineFailure(result, '404 Not Found: No webhook delivery 00000000-0000-5000-8000-000000000000')
    })
  })

  describe('webhooks resend', () => {
    it('sends the identical bytes again, signed, and prints the new entry', async () => {
      const payment = await create()
      const [original] = await finishedDeliveries(sandbox.direct, payment.id, 1)
      const { json, exitCode, stderr } = await runCliJson<WebhookDelivery>(['webhooks', 'resend', original!.id], env())
      expect(exitCode).toBe(0)
      expect(stderr).toBe('')
      expect(json).toMatchObject({
        status: 'success',
        resend_of: original!.id,
        attempt_count: 2,
        checkout_id: payment.id,
        http_status: 200,
      })
      expect(json.id).not.toBe(original!.id)

      const [first, again] = receivedFor(receiver, payment.id)
      expect(again).toBeDefined()
      expect(again!.raw.equals(first!.raw)).toBe(true)
      expect(again!.verified).toBe(true)
      expect(again!.headers['x-webhook-auth']).toBe(first!.headers['x-webhook-auth'])
      expect(await sandbox.direct.webhooks.get(json.id)).toEqual(json)

      const human = await runCli(['webhooks', 'resend', original!.id], env())
      expect(human.exitCode).toBe(0)
      expect(human.stdout).toContain(original!.id) // as "Resend of"
      expect(receivedFor(receiver, payment.id)).toHaveLength(3)
    })
  })

  describe('webhooks pause and resume', () => {
    it('pause: the next delivery is logged as skipped and not sent; resume: the next one is sent', async () => {
      const paused = await runCliJson<WebhooksPausedState>(['webhooks', 'pause'], env())
      expect(paused.exitCode).toBe(0)
      expect(paused.json).toEqual({ merchant_id: sandbox.merchants[0]!.id, webhooks_paused: true })
      expect((await sandbox.direct.merchant.get()).webhooks_paused).toBe(true)

      const skipped = await create()
      const [entry] = await finishedDeliveries(sandbox.direct, skipped.id, 1)
      expect(entry).toMatchObject({
        status: 'skipped',
        http_status: null,
        error_message: 'Not sent: webhooks are paused for this merchant',
      })
      expect(receivedFor(receiver, skipped.id)).toHaveLength(0)

      const resumed = await runCli(['webhooks', 'resume'], env())
      expect(resumed.exitCode).toBe(0)
      expect(resumed.stdout).toBe(`Webhooks are sent again for merchant ${sandbox.merchants[0]!.id}.\n`)
      expect((await sandbox.direct.merchant.get()).webhooks_paused).toBe(false)
      const sent = await create()
      const [delivered] = await finishedDeliveries(sandbox.direct, sent.id, 1)
      expect(delivered!.status).toBe('success')
      expect(receivedFor(receiver, sent.id)).toHaveLength(1)
      expect(receivedFor(receiver, skipped.id)).toHaveLength(0)
    })

    it('pause says how to undo it', async () => {
      const result = await runCli(['webhooks', 'pause'], env())
      try {
        expect(result.exitCode).toBe(0)
        expect(result.stdout).toContain('paybox webhooks resume')
      } finally {
        await sandbox.direct.webhooks.resume()
      }
    })
  })
})

describe('paybox webhooks resend: the rate limit', () => {
  it('the 11th resend in a minute fails in one line saying when to retry, and sends nothing', async () => {
    const sandbox = await startTestSandbox({ webhookPollMs: 20 })
    const receiver = await startWebhookReceiver(sandbox.merchants[0]!.apiSecret)
    try {
      const payment = await sandbox.direct.payments.create({
        amount: { value: 100, currency: 'USD' },
        description: 'Resent',
        webhookUrl: receiver.url,
      })
      const [original] = await finishedDeliveries(sandbox.direct, payment.id, 1)
      for (let i = 0; i < 10; i++) await sandbox.direct.webhooks.resend(original!.id)
      expect(receiver.received).toHaveLength(11)

      const result = await runCli(['webhooks', 'resend', original!.id], merchantEnv(sandbox))
      expect(result.exitCode).toBe(1)
      expect(result.stdout).toBe('')
      expect(linesOf(result.stderr)).toHaveLength(1)
      expect(result.stderr).toMatch(/^Error: Too many resends: the sandbox allows 10 a minute \(retry in \d+ s\)\n$/)
      const seconds = Number(/retry in (\d+) s/.exec(result.stderr)![1])
      expect(seconds).toBeGreaterThan(0)
      expect(seconds).toBeLessThanOrEqual(60)
      expect(receiver.received).toHaveLength(11)
    } finally {
      await sandbox.stop()
      await receiver.close()
    }
  })
})

describe('paybox merchants rotate-secret', () => {
  const sandbox = sandboxForSuite({ webhookPollMs: 20 })
  const receiver = webhookReceiverForSuite(() => sandbox.merchants[0]!.apiSecret)

  it('prints the new secret; the old one stops working and webhooks are signed with the new one', async () => {
    const merchant = sandbox.merchants[0]!
    const env = merchantEnv(sandbox)
    const { json, exitCode } = await runCliJson<{ merchant: SandboxMerchant }>(['merchants', 'rotate-secret', merchant.id], env)
    expect(exitCode).toBe(0)
    const rotated = json.merchant
    expect(rotated).toMatchObject({ id: merchant.id, name: merchant.name, apiKey: merchant.apiKey, settlement_mode: 'direct' })
    expect(rotated.apiSecret).toMatch(/^sk_test_[0-9a-f]{48}$/)
    expect(rotated.apiSecret).not.toBe(merchant.apiSecret)

    // The environment still has the old secret: refused.
    const stale = await runCli(['payments', 'list'], env)
    expect(stale.exitCode).toBe(1)
    expect(stale.stderr).toMatch(/^Error: 401 /)

    const client = new PayboxClient({ baseUrl: sandbox.url, apiKey: merchant.apiKey, apiSecret: rotated.apiSecret })
    receiver.secret = rotated.apiSecret
    const payment = await client.payments.create({
      amount: { value: 100, currency: 'USD' },
      description: 'After rotation',
      webhookUrl: receiver.url,
    })
    await finishedDeliveries(client, payment.id, 1)
    expect(receiver.received.at(-1)!.verified).toBe(true)

    const human = await runCli(['merchants', 'rotate-secret', merchant.id], env)
    expect(human.exitCode).toBe(0)
    expect(human.stdout).toContain(merchant.id)
    expect(human.stdout).toMatch(/sk_test_[0-9a-f]{48}/)
    expect(human.stdout).not.toContain(rotated.apiSecret)
    expect(human.stderr).toBe('PAYBOX_API_SECRET still holds the old secret.\n')
  })

  it('updates the local sandbox state file that holds the merchant and names the profiles holding the old secret', async () => {
    const merchant = sandbox.merchants[1]!
    const env = merchantEnv(sandbox, 'direct')
    const home = { PAYBOX_HOME: env.PAYBOX_HOME, PAYBOX_CONFIG_DIR: env.PAYBOX_CONFIG_DIR } as NodeJS.ProcessEnv
    const before = (await sandbox.admin.sandbox.merchants()).items
    writeLocalSandbox(
      {
        baseUrl: sandbox.url,
        adminToken: sandbox.identity.adminToken,
        pid: 12345,
        merchants: before.map(({ account: _account, ...m }) => m),
      },
      home,
    )
    const oldSecret = before.find((m) => m.id === merchant.id)!.apiSecret
    saveProfile('escrow', { baseUrl: sandbox.url, apiKey: merchant.apiKey, apiSecret: oldSecret }, home)
    saveProfile('other', { baseUrl: 'http://127.0.0.1:1', apiKey: merchant.apiKey, apiSecret: oldSecret }, home)

    const { stdout, stderr, exitCode } = await runCli(['merchants', 'rotate-secret', merchant.id], env)
    expect(exitCode).toBe(0)
    const newSecret = /sk_test_[0-9a-f]{48}/.exec(stdout)![0]
    const stateFile = path.join(env.PAYBOX_HOME!, 'sandbox.json')
    expect(linesOf(stderr)).toEqual([
      `Updated the local sandbox's state file (${stateFile}) with the new secret.`,
      `Profile "escrow" still holds the old secret; update it with: paybox config set apiSecret ${newSecret} --profile escrow`,
    ])
    const state = JSON.parse(fs.readFileSync(stateFile, 'utf8')) as { pid: number; merchants: Array<{ id: string; apiSecret: string }> }
    expect(state.pid).toBe(12345)
    expect(state.merchants.find((m) => m.id === merchant.id)!.apiSecret).toBe(newSecret)
    expect(state.merchants.find((m) => m.id !== merchant.id)!.apiSecret).toBe(before.find((m) => m.id !== merchant.id)!.apiSecret)
    expect(fs.statSync(stateFile).mode & 0o777).toBe(0o600)
    // Profiles are not rewritten.
    const config = JSON.parse(fs.readFileSync(path.join(env.PAYBOX_CONFIG_DIR!, 'config.json'), 'utf8')) as {
      profiles: Record<string, { apiSecret: string }>
    }
    expect(config.profiles.escrow!.apiSecret).toBe(oldSecret)

    // --json says the same in the document (notices are for people).
    const json = await runCliJson<{ merchant: SandboxMerchant; updatedStateFile?: string; staleProfiles: string[] }>(
      ['merchants', 'rotate-secret', merchant.id],
      env,
    )
    expect(json.exitCode).toBe(0)
    expect(json.json).toMatchObject({ updatedStateFile: stateFile, staleProfiles: ['escrow'], staleEnvironment: false })
    expect(json.json.merchant.apiSecret).not.toBe(newSecret)
  })

  it('needs the admin token, and an unknown merchant is a 404, each in one line', async () => {
    const noToken = await runCli(
      ['merchants', 'rotate-secret', sandbox.merchants[0]!.id],
      merchantEnv(sandbox, 'direct', { PAYBOX_ADMIN_TOKEN: undefined }),
    )
    expectOneLineFailure(
      noToken,
      `No sandbox admin token for ${sandbox.url} (pass --admin-token, set PAYBOX_ADMIN_TOKEN, or run: paybox login --from-sandbox)`,
    )
    const unknown = await runCli(['merchants', 'rotate-secret', 'no-such-merchant'], merchantEnv(sandbox))
    expectOneLineFailure(unknown, '404 Not Found: No merchant no-such-merchant')
  })
})

describe('paybox webhooks verify', () => {
  const secret = 'sk_test_0123456789abcdef0123456789abcdef01234567'
  let dir: string
  const sandbox = sandboxForSuite({ webhookPollMs: 20, defaultCredentials: { apiKey: 'pk_test_verify', apiSecret: secret } })
  const receiver = webhookReceiverForSuite(() => secret)
  let body: Buffer
  let signature: string

  beforeAll(async () => {
    dir = temporaryDir('paybox-verify-')
    // A real delivery: its bytes and header, as a receiver would save them.
    await sandbox.direct.payments.create({ amount: { value: 100, currency: 'USD' }, description: 'Verify me ✓', webhookUrl: receiver.url })
    const [delivered] = await waitFor('a delivery', () => (receiver.received.length > 0 ? receiver.received : undefined))
    body = delivered!.raw
    signature = delivered!.headers['x-webhook-auth'] as string
    fs.writeFileSync(path.join(dir, 'body.json'), body)
  })

  const env = (): CliEnv => ({ CI: '1', PAYBOX_HOME: dir, PAYBOX_CONFIG_DIR: path.join(dir, 'config') })
  const verify = (file: string, sig = signature, key = secret) =>
    runCli(['webhooks', 'verify', '--secret', key, '--signature', sig, '--file', file], env())

  it('prints valid and exits 0 for the bytes as delivered', async () => {
    expect(await verify(path.join(dir, 'body.json'))).toMatchObject({ exitCode: 0, stdout: 'valid\n', stderr: '' })
    const json = await runCliJson(
      ['webhooks', 'verify', '--secret', secret, '--signature', signature, '--file', path.join(dir, 'body.json')],
      env(),
    )
    expect(json).toMatchObject({ exitCode: 0, json: { valid: true } })
  })

  it('prints invalid and exits 1 for a tampered body, re-serialized JSON, or the wrong secret', async () => {
    const tampered = Buffer.from(body)
    tampered[tampered.indexOf('"status": "open"') + 11] = 'O'.charCodeAt(0)
    fs.writeFileSync(path.join(dir, 'tampered.json'), tampered)
    expect(await verify(path.join(dir, 'tampered.json'))).toMatchObject({ exitCode: 1, stdout: 'invalid\n', stderr: '' })

    fs.writeFileSync(path.join(dir, 'compact.json'), JSON.stringify(JSON.parse(body.toString('utf8'))))
    expect(await verify(path.join(dir, 'compact.json'))).toMatchObject({ exitCode: 1, stdout: 'invalid\n' })

    expect(await verify(path.join(dir, 'body.json'), signature, `${secret}x`)).toMatchObject({ exitCode: 1, stdout: 'invalid\n' })
    const json = await runCliJson(
      ['webhooks', 'verify', '--secret', 'sk_wrong', '--signature', signature, '--file', path.join(dir, 'body.json')],
      env(),
    )
    expect(json).toMatchObject({ exitCode: 1, json: { valid: false } })
  })

  it('reads the body from standard input when there is no --file', async () => {
    const child = spawnCli(['webhooks', 'verify', '--secret', secret, '--signature', signature], env())
    child.child.stdin.end(body)
    expect(await child.firstLine).toBe('valid')
    expect(await child.exited).toEqual({ code: 0, signal: null })

    const tampered = spawnCli(['webhooks', 'verify', '--secret', secret, '--signature', signature], env())
    tampered.child.stdin.end(Buffer.concat([body, Buffer.from(' ')]))
    expect(await tampered.firstLine).toBe('invalid')
    expect(await tampered.exited).toEqual({ code: 1, signal: null })
  })

  it('refuses a signature that is not 64 hex digits and a missing file in one line', async () => {
    expectOneLineFailure(
      await verify(path.join(dir, 'body.json'), 'sha256=abc'),
      '--signature must be 64 hex digits (the X-WEBHOOK-AUTH header), got "sha256=abc"',
    )
    const missing = path.join(dir, 'missing.json')
    expectOneLineFailure(await verify(missing), `Cannot read --file ${missing}: ENOENT`)
    const noSecret = await runCli(['webhooks', 'verify', '--signature', signature, '--file', path.join(dir, 'body.json')], env())
    expect(noSecret.exitCode).toBe(1)
    expect(linesOf(noSecret.stderr)).toHaveLength(1)
    expect(noSecret.stderr).toContain('Missing required flag secret')
  })
})

describe('paybox sandbox start --require-https', () => {
  it('logs webhooks to plain-http URLs as skipped, without sending them', async () => {
    const sandbox = await spawnSandbox(['--port', '0', '--db', ':memory:', '--ledger-close', 'instant', '--require-https'])
    const receiver = await startWebhookReceiver(sandbox.banner.merchants[0]!.apiSecret)
    try {
      const { apiKey, apiSecret } = sandbox.banner.merchants[0]!
      const client = new PayboxClient({ baseUrl: sandbox.banner.baseUrl, apiKey, apiSecret })
      const payment = await client.payments.create({
        amount: { value: 100, currency: 'USD' },
        description: 'Plain http',
        webhookUrl: receiver.url,
      })
      const [entry] = await finishedDeliveries(client, payment.id, 1)
      expect(entry).toMatchObject({
        status: 'skipped',
        http_status: null,
        error_message: 'Not sent: the sandbox runs with --require-https and the URL is http',
      })
      expect(receiver.received).toHaveLength(0)
    } finally {
      expect(await sandbox.stop()).toBe(0)
      await receiver.close()
    }
  })
})
