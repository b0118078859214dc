// `paybox webhooks test-receiver` against real receivers on 127.0.0.1, written here the way
// integrators write them: one correct receiver that passes everything, and one per classic
// mistake, each of which the grade must catch (and only it).
import http from 'node:http'
import type { AddressInfo } from 'node:net'
import { afterEach, describe, expect, it } from 'vitest'
import { verifyWebhook } from '../../src/signing.js'
import type { GradingReport } from '../../src/webhooks/receiver-grading.js'
import { expectOneLineFailure, isolatedEnv, linesOf, runCli, runCliJson } from '../../harness/cli.js'

const SECRET = 'sk_test_receiver_grading_secret'
const MUST_REJECT = ['bad-signature', 're-serialized', 'empty-signature', 'missing-signature', 'tampered-body']
const ALL_CASES = ['signed', 'duplicate', ...MUST_REJECT, 'out-of-order', 'resend']

interface Delivery {
  raw: Buffer
  signature: string | undefined
  data: { id: string; status: string; type: string }
}

type Handler = (delivery: Delivery) => number | 'hang'

interface Receiver {
  url: string
  deliveries: Delivery[]
  close(): Promise<void>
}

const receivers: Receiver[] = []
afterEach(async () => {
  await Promise.all(receivers.splice(0).map((receiver) => receiver.close()))
})

async function startReceiver(handle: Handler): Promise<Receiver> {
  const deliveries: Delivery[] = []
  const sockets = new Set<import('node:net').Socket>()
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = []
    req.on('data', (chunk: Buffer) => chunks.push(chunk))
    req.on('end', () => {
      const raw = Buffer.concat(chunks)
      const header = req.headers['x-webhook-auth']
      const delivery: Delivery = {
        raw,
        signature: typeof header === 'string' ? header : undefined,
        data: JSON.parse(raw.toString('utf8')).data,
      }
      deliveries.push(delivery)
      const status = handle(delivery)
      if (status !== 'hang') res.writeHead(status, { 'content-type': 'text/plain' }).end(String(status))
    })
  })
  server.on('connection', (socket) => {
    sockets.add(socket)
    socket.on('close', () => sockets.delete(socket))
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const receiver: Receiver = {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/webhooks`,
    deliveries,
    close: async () => {
      for (const socket of sockets) socket.destroy()
      await new Promise<void>((resolve) => server.close(() => resolve()))
    },
  }
  receivers.push(receiver)
  return receiver
}

/** Verifies the raw bytes in constant time and processes each payment id + status once. */
function correctReceiver(processed: string[] = []): Handler {
  const seen = new Set<string>()
  return ({ raw, signature, data }) => {
    if (!verifyWebhook(raw, signature, SECRET)) return 401
    const key = `${data.id}:${data.status}`
    if (!seen.has(key)) {
      seen.add(key)
      processed.push(key)
    }
    return 200
  }
}

const grade = (url: string, extra: string[] = [], env = isolatedEnv()) =>
  runCliJson<GradingReport>(['webhooks', 'test-receiver', url, '--secret', SECRET, ...extra], env)

const failedCases = (report: GradingReport): string[] => report.cases.filter((c) => c.verdict === 'fail').map((c) => c.id)

describe('paybox webhooks test-receiver', () => {
  it('passes a receiver that verifies the raw bytes and handles repeats idempotently, and exits 0', async () => {
    const processed: string[] = []
    const receiver = await startReceiver(correctReceiver(processed))

    const { json, exitCode, stderr } = await grade(receiver.url)
    expect(stderr).toBe('')
    expect(exitCode).toBe(0)
    expect(json.passed).toBe(true)
    expect(json.cases.map((c) => c.id)).toEqual(ALL_CASES)
    expect(failedCases(json)).toEqual([])
    expect(json.responseTime).toMatchObject({ verdict: 'pass', timedOut: 0, budgetMs: 10_000 })
    expect(json.deduplication).toContain('by payment id, and by payment id plus status for resends')
    // The battery really sent repeats: 10 deliveries, of which the receiver processed 3 distinct events.
    expect(receiver.deliveries).toHaveLength(10)
    expect(processed).toHaveLength(3)
    const statuses = json.cases.flatMap((c) => c.sends.map((s) => s.status))
    expect(statuses).toEqual([200, 200, 401, 401, 401, 401, 401, 200, 200, 200])
  })

  it('sends realistic, correctly signed spec-6 bodies, and the re-serialized case sends other bytes than it signs', async () => {
    const receiver = await startReceiver(correctReceiver())
    await grade(receiver.url)
    const [signed, , , reserialized] = receiver.deliveries
    expect(verifyWebhook(signed!.raw, signed!.signature, SECRET)).toBe(true)
    expect(Object.keys(JSON.parse(signed!.raw.toString('utf8')).data)).toEqual([
      'type',
      'id',
      'status',
      'settlement_status',
      'amount',
      'settlement_amount',
      'settlement_currency',
      'settlement_fee',
      'amount_paid',
      'amount_received',
      'amount_remaining',
      'history',
      'metadata',
    ])
    expect(signed!.data).toMatchObject({ type: 'transaction_created', status: 'open' })
    expect(signed!.data.id).toMatch(/^pt_[0-9a-f]{32}$/)
    // Pretty-printed bytes, signed as their compact re-serialization.
    expect(reserialized!.raw.toString('utf8')).toContain('\n  "data": {')
    expect(verifyWebhook(reserialized!.raw, reserialized!.signature, SECRET)).toBe(false)
    expect(verifyWebhook(JSON.stringify(JSON.parse(reserialized!.raw.toString('utf8'))), reserialized!.signature, SECRET)).toBe(true)
  })

  it('prints a table with one row per case and a summary line', async () => {
    const receiver = await startReceiver(correctReceiver())
    const { stdout, exitCode } = await runCli(
      ['webhooks', 'test-receiver', receiver.url, '--secret', SECRET],
      isolatedEnv({ NO_COLOR: '1' }),
    )
    expect(exitCode).toBe(0)
    expect(stdout).toContain('Correctly signed event')
    expect(stdout).toContain('Signature over re-serialized JSON, not the raw bytes')
    expect(stdout).toContain('Response time')
    expect(stdout.match(/PASS/g)).toHaveLength(10)
    expect(stdout).not.toContain('FAIL')
    expect(linesOf(stdout).at(-1)).toBe(`All 10 checks passed for ${receiver.url}`)
  })

  describe('catches each classic mistake, and only it', () => {
    it('a receiver that accepts everything without verifying: every must-reject case fails, exit 1', async () => {
      const receiver = await startReceiver(() => 200)
      const { json, exitCode } = await grade(receiver.url)
      expect(exitCode).toBe(1)
      expect(json.passed).toBe(false)
      expect(failedCases(json)).toEqual(MUST_REJECT)
      expect(json.cases.find((c) => c.id === 'tampered-body')!.detail).toContain('was accepted')
    })

    it('a receiver that verifies re-serialized JSON instead of the raw bytes', async () => {
      const receiver = await startReceiver(({ raw, signature }) =>
        verifyWebhook(JSON.stringify(JSON.parse(raw.toString('utf8'))), signature, SECRET) ? 200 : 401,
      )
      const { json, exitCode } = await grade(receiver.url)
      expect(exitCode).toBe(1)
      // The bodies are indented as the sandbox's are: it refuses every genuine event, and accepts the forgery.
      expect(failedCases(json)).toEqual(['signed', 'duplicate', 're-serialized', 'resend'])
    })

    it('a receiver that lets deliveries without a signature through', async () => {
      const receiver = await startReceiver(({ raw, signature }) => (!signature || verifyWebhook(raw, signature, SECRET) ? 200 : 401))
      const { json, exitCode } = await grade(receiver.url)
      expect(exitCode).toBe(1)
      expect(failedCases(json)).toEqual(['empty-signature', 'missing-signature'])
    })

    it('a receiver that crashes (500) when an event arrives after a later one', async () => {
      const rank: Record<string, number> = { open: 0, underpaid: 1, paid: 2 }
      const latest = new Map<string, number>()
      const verify = correctReceiver()
      const receiver = await startReceiver((delivery) => {
        const answer = verify(delivery)
        if (answer !== 200) return answer
        const now = rank[delivery.data.status]!
        if (now < (latest.get(delivery.data.id) ?? -1)) return 500
        latest.set(delivery.data.id, now)
        return 200
      })
      const { json, exitCode } = await grade(receiver.url)
      expect(exitCode).toBe(1)
      expect(failedCases(json)).toEqual(['out-of-order'])
      expect(json.cases.find((c) => c.id === 'out-of-order')!.sends.map((s) => s.status)).toEqual([200, 500])
    })

    it('a receiver that refuses repeats with 409 instead of acknowledging them', async () => {
      const seen = new Set<string>()
      const receiver = await startReceiver(({ raw, signature, data }) => {
        if (!verifyWebhook(raw, signature, SECRET)) return 401
        const key = `${data.id}:${data.status}`
        if (seen.has(key)) return 409
        seen.add(key)
        return 200
      })
      const { json, exitCode } = await grade(receiver.url)
      expect(exitCode).toBe(1)
      expect(failedCases(json)).toEqual(['duplicate', 'resend'])
      expect(json.cases.find((c) => c.id === 'duplicate')!.detail).toContain('HTTP 409')
    })

    it('a receiver that never answers: the signed event and the response time fail; nothing it answered was accepted', async () => {
      const receiver = await startReceiver(() => 'hang')
      const { json, exitCode } = await grade(receiver.url, ['--timeout', '200ms'])
      expect(exitCode).toBe(1)
      expect(json.timeoutMs).toBe(200)
      expect(failedCases(json)).toEqual(['signed', 'duplicate', 'out-of-order', 'resend'])
      expect(json.responseTime).toMatchObject({ verdict: 'fail', timedOut: 10, slowest: null })
      const signed = json.cases.find((c) => c.id === 'signed')!
      expect(signed.sends[0]).toMatchObject({ status: null, error: 'no answer within 0.2 s' })
      // Not accepted, so the must-reject cases pass, with a remark.
      expect(json.cases.find((c) => c.id === 'bad-signature')).toMatchObject({
        verdict: 'pass',
        detail: expect.stringContaining('answer 401 instead'),
      })
    })
  })

  it('reports a receiver that is not running per case instead of crashing', async () => {
    const gone = await startReceiver(() => 200)
    await gone.close()
    receivers.splice(receivers.indexOf(gone), 1)
    const { json, exitCode } = await grade(gone.url)
    expect(exitCode).toBe(1)
    expect(json.cases).toHaveLength(ALL_CASES.length)
    for (const result of json.cases) expect(result.sends.every((s) => s.status === null && /ECONNREFUSED/.test(s.error ?? ''))).toBe(true)
    expect(failedCases(json)).toEqual(['signed', 'duplicate', 'out-of-order', 'resend'])
  })

  it("signs with the merchant's API secret from the environment when --secret is not given", async () => {
    const receiver = await startReceiver(correctReceiver())
    const { json, exitCode } = await runCliJson<GradingReport>(
      ['webhooks', 'test-receiver', receiver.url],
      isolatedEnv({ PAYBOX_API_SECRET: SECRET }),
    )
    expect(exitCode).toBe(0)
    expect(json.passed).toBe(true)
  })

  it('without any secret, fails in one line naming the flag, and sends nothing', async () => {
    const receiver = await startReceiver(correctReceiver())
    const result = await runCli(['webhooks', 'test-receiver', receiver.url], isolatedEnv())
    expectOneLineFailure(result, 'No secret to sign deliveries with (pass --secret sk_…, set PAYBOX_API_SECRET, or run: paybox login)')
    expect(receiver.deliveries).toHaveLength(0)
  })

  it('refuses a URL that is not http(s) and an unreadable --timeout in one line', async () => {
    expectOneLineFailure(
      await runCli(['webhooks', 'test-receiver', 'ftp://127.0.0.1/x', '--secret', SECRET], isolatedEnv()),
      '<url> must be an absolute http(s) URL, got "ftp://127.0.0.1/x"',
    )
    expectOneLineFailure(
      await runCli(['webhooks', 'test-receiver', 'http://127.0.0.1:9/x', '--secret', SECRET, '--timeout', 'soon'], isolatedEnv()),
      'Invalid --timeout "soon" (a duration such as 10s, 500ms or 2 (seconds), at most 10m)',
    )
  })
})
