import path from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { ManualClock } from '../../sandbox/clock.js'
import { isolatedEnv, runCli, runCliJson } from '../../harness/cli.js'
import { refusal } from '../../harness/refusal.js'
import { rawRequest, startTestSandbox, temporaryDir, type TestSandbox } from '../../harness/sandbox.js'

const START = Date.UTC(2026, 10, 21, 12, 0, 0)
const MINUTE = 60_000

describe('business clock and payment expiry', () => {
  let sandbox: TestSandbox
  const clock = new ManualClock(START)
  beforeAll(async () => {
    sandbox = await startTestSandbox({ clock, dueWorkIntervalMs: 0 })
  })
  afterAll(() => sandbox.stop())

  it('reads business time with the admin token only', async () => {
    expect(await sandbox.admin.sandbox.clock()).toEqual({ now: new Date(START).toISOString(), advancedSeconds: 0 })
    const anonymous = await rawRequest(sandbox.url, { method: 'GET', path: '/sandbox/clock' })
    expect(anonymous.status).toBe(401)
    const merchant = await rawRequest(sandbox.url, { method: 'GET', path: '/sandbox/clock', as: sandbox.merchants[0] })
    expect(merchant.status).toBe(401)
  })

  it('expires open payments whose expiry passes, and only those', async () => {
    const short = await sandbox.direct.payments.create({ amount: { value: 100, currency: 'USD' }, description: 'Default expiry' })
    const long = await sandbox.direct.payments.create({
      amount: { value: 100, currency: 'USD' },
      description: 'Two hours',
      expiresInHours: 2,
    })

    const before = await sandbox.admin.sandbox.advanceClock({ seconds: 29 * 60 })
    expect(before.processed).toEqual({ expiredPayments: 0, overdueInvoices: 0, failedEscrows: 0, closedQuotes: 0 })
    expect((await sandbox.direct.payments.get(short.id)).status).toBe('open')

    const after = await sandbox.admin.sandbox.advanceClock({ seconds: 60 })
    expect(after).toMatchObject({
      now: new Date(START + 30 * MINUTE).toISOString(),
      advancedSeconds: 30 * 60,
      processed: { expiredPayments: 1 },
    })
    const expired = await sandbox.direct.payments.get(short.id)
    expect(expired.status).toBe('expired')
    expect(expired.settlement_status).toBe('open')
    expect(expired.updatedAt).toBe(new Date(START + 30 * MINUTE).toISOString())
    expect(expired.history).toEqual([
      { time: START, status: 'success', description: 'Payment created' },
      { time: START + 30 * MINUTE, status: 'expired', description: 'Payment expired' },
    ])
    expect((await sandbox.direct.payments.get(long.id)).status).toBe('open')
    expect((await sandbox.direct.payments.list({ status: 'expired' })).items.map((p) => p.id)).toEqual([short.id])
  })

  it.each([
    ['zero', { seconds: 0 }],
    ['negative', { seconds: -5 }],
    ['fractional', { seconds: 1.5 }],
    ['text', { seconds: '2h' }],
    ['missing', {}],
    ['over ten years', { seconds: 400_000_000 }],
  ])('refuses a %s advance with 400 and leaves time alone', async (_name, body) => {
    const before = await sandbox.admin.sandbox.clock()
    expect((await refusal(sandbox.admin.request('POST', '/sandbox/clock/advance', { auth: 'admin', body }))).statusCode).toBe(400)
    expect(await sandbox.admin.sandbox.clock()).toEqual(before)
  })

  it('is moved from the CLI with a human duration', async () => {
    const env = isolatedEnv({ PAYBOX_BASE_URL: sandbox.url, PAYBOX_ADMIN_TOKEN: sandbox.identity.adminToken })
    const before = await sandbox.admin.sandbox.clock()
    const result = await runCliJson<{ advancedSeconds: number }>(['sandbox', 'clock', 'advance', '2h'], env)
    expect(result.exitCode).toBe(0)
    expect(result.json.advancedSeconds).toBe(before.advancedSeconds + 7200)
    const bad = await runCli(['sandbox', 'clock', 'advance', 'soon'], env)
    expect(bad.exitCode).toBe(1)
    expect(bad.stderr.trim()).toBe('Error: Invalid duration "soon" (a whole number of seconds or a duration such as 90s, 30m, 2h, 7d)')
  })
})

describe('business clock across restarts', () => {
  it('resumes at the same offset from the wall clock', async () => {
    const db = path.join(temporaryDir(), 'clock.db')
    const first = await startTestSandbox({ db, dueWorkIntervalMs: 0 })
    await first.admin.sandbox.advanceClock({ seconds: 3600 })
    await first.stop()
    const second = await startTestSandbox({ db, dueWorkIntervalMs: 0 })
    try {
      const clock = await second.admin.sandbox.clock()
      expect(clock.advancedSeconds).toBe(3600)
      expect(Date.parse(clock.now) - Date.now()).toBeGreaterThan(3500 * 1000)
    } finally {
      await second.stop()
    }
  })
})
