// Snapshots and reset of a running sandbox: a snapshot is the whole state at one moment (taken
// while requests write), a restore brings exactly that state back without a restart, and a
// reset returns to genesis with the same seed, keys and admin token.
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { PayboxClient } from '../../src/client/paybox-client.js'
import type { Payment } from '../../src/client/types.js'
import { startSandbox, type RunningSandbox, type SandboxOptions } from '../../sandbox/server.js'
import { refusal } from '../../harness/refusal.js'
import { freshDatabase, temporaryDir, testBackend } from '../../harness/sandbox.js'
import { waitFor } from '../../harness/wait.js'

const started: RunningSandbox[] = []
afterEach(async () => {
  await Promise.all(started.splice(0).map((sandbox) => sandbox.stop()))
})

interface Started {
  sandbox: RunningSandbox
  direct: PayboxClient
  admin: PayboxClient
}

async function start(options: Partial<SandboxOptions> = {}): Promise<Started> {
  const fresh = options.db === undefined ? await freshDatabase() : undefined
  const sandbox = await startSandbox({ port: 0, log: () => {}, ledgerClose: 'instant', db: fresh?.location ?? '', ...options })
  if (fresh) {
    const stop = sandbox.stop.bind(sandbox)
    sandbox.stop = async () => {
      await stop()
      await fresh.drop()
    }
  }
  started.push(sandbox)
  const [direct] = sandbox.merchants
  const adminToken = sandbox.identity.adminToken
  return {
    sandbox,
    direct: new PayboxClient({ baseUrl: sandbox.url, apiKey: direct!.apiKey, apiSecret: direct!.apiSecret, adminToken }),
    admin: new PayboxClient({ baseUrl: sandbox.url, adminToken }),
  }
}

const createPayment = (client: PayboxClient, description: string) =>
  client.payments.create({ amount: { value: 1250, currency: 'USD' }, description })

async function allPayments(client: PayboxClient): Promise<Payment[]> {
  const payments: Payment[] = []
  for (let page = 1; ; page++) {
    const result = await client.payments.list({ page, limit: 100 })
    payments.push(...result.items)
    if (payments.length >= result.meta.totalItems || result.items.length === 0) return payments
  }
}

/**
 * Everything that must hold in any consistent state: the ledger's supply adds up (the health
 * check runs its invariants), every paid payment's transaction is on the ledger, no open
 * payment has received money, and every transaction naming a payment names one that exists.
 */
async function expectConsistent({ direct, admin }: Started): Promise<Payment[]> {
  const health = await admin.sandbox.health()
  expect(health.checks.ledger.status).toBe('ok')
  const payments = await allPayments(direct)
  const byId = new Map(payments.map((p) => [p.id, p]))
  const paidBy = new Map<string, number>()
  for (let after: number | undefined; ;) {
    const { items } = await admin.ledger.transactions({ limit: 200, after })
    for (const tx of items) {
      if (tx.payment === null) continue
      expect(byId.has(tx.payment), `transaction ${tx.hash} names payment ${tx.payment}, which does not exist`).toBe(true)
      paidBy.set(tx.payment, (paidBy.get(tx.payment) ?? 0) + 1)
    }
    if (items.length < 200) break
    after = items.at(-1)!.position
  }
  for (const payment of payments) {
    if (payment.status === 'open') {
      expect(payment.amount_paid, `open payment ${payment.id} has received money`).toBe(0)
      expect(paidBy.has(payment.id), `open payment ${payment.id} has ledger transactions`).toBe(false)
    } else {
      expect(payment.status).toBe('paid')
      expect(payment.stellarTxId).toBeDefined()
      expect((await admin.ledger.transaction(payment.stellarTxId!)).payment).toBe(payment.id)
    }
  }
  return payments
}

describe('sandbox snapshots', () => {
  it('restores the state of the moment of the snapshot: what came after is gone, what was before is there', async () => {
    const running = await start()
    const { direct, admin, sandbox } = running
    const before = await createPayment(direct, 'Before the snapshot')
    const paid = await direct.sandbox.pay(before.id)
    expect(paid.status).toBe('paid')
    const saved = await admin.snapshots.save({ name: 'base' })
    expect(saved).toMatchObject({ name: 'base' })
    expect(saved.size).toBeGreaterThan(0)
    expect(await admin.request('GET', '/sandbox/snapshots/base', { auth: 'admin' })).toEqual(saved)

    const after = await createPayment(direct, 'After the snapshot')
    await direct.sandbox.pay(after.id)
    await admin.sandbox.advanceClock({ seconds: 3600 })
    expect((await direct.payments.list()).meta.totalItems).toBe(2)

    const keys = sandbox.merchants.map((m) => m.apiKey)
    const restored = await admin.snapshots.restore('base')
    expect(restored.snapshot?.name).toBe('base')
    expect(restored.merchants.map((m) => m.apiKey)).toEqual(keys)

    // The same clients keep working: same keys, same admin token.
    const payments = await expectConsistent(running)
    expect(payments.map((p) => p.id)).toEqual([before.id])
    expect(await direct.payments.get(before.id)).toMatchObject({ status: 'paid', stellarTxId: paid.stellarTxId })
    expect((await refusal(direct.payments.get(after.id))).statusCode).toBe(404)
    // Business time came back too (the hour advanced after the snapshot is undone).
    expect((await admin.sandbox.clock()).advancedSeconds).toBe(0)
    expect((await admin.snapshots.list()).items.map((s) => s.name)).toEqual(['base'])

    // The restored sandbox takes new work and stays consistent.
    const next = await createPayment(direct, 'After the restore')
    await direct.sandbox.pay(next.id)
    expect((await expectConsistent(running)).map((p) => p.id).sort()).toEqual([before.id, next.id].sort())
  })

  it('snapshots taken while payments are created and paid restore to consistent states', async () => {
    const running = await start()
    const { direct, admin } = running
    const PER_WORKER = 12
    let finished = 0
    const worker = async (name: string) => {
      for (let i = 0; i < PER_WORKER; i++) {
        const payment = await createPayment(direct, `${name} #${i}`)
        // Every other one is paid: a pay writes the ledger and the payment in one transaction.
        if (i % 2 === 0) await direct.sandbox.pay(payment.id)
      }
      finished++
    }
    const writing = Promise.all(['a', 'b', 'c', 'd'].map(worker))
    const counts: number[] = []
    for (const [index, threshold] of [3, 12, 24].entries()) {
      await waitFor(`${threshold} payments`, async () => (await direct.payments.list({ limit: 1 })).meta.totalItems >= threshold)
      const stillWriting = finished < 4
      await admin.snapshots.save({ name: `during-${index}` })
      if (index === 0) expect(stillWriting).toBe(true)
    }
    await writing
    const total = (await direct.payments.list({ limit: 1 })).meta.totalItems
    expect(total).toBe(4 * PER_WORKER)

    for (const index of [0, 1, 2]) {
      await admin.snapshots.restore(`during-${index}`)
      counts.push((await expectConsistent(running)).length)
    }
    // Each snapshot saw more than the one before, and the first was taken mid-way.
    expect(counts[0]).toBeLessThan(total)
    expect(counts[0]).toBeLessThanOrEqual(counts[1]!)
    expect(counts[1]).toBeLessThanOrEqual(counts[2]!)
  })

  it('reset returns a seeded sandbox to its genesis, with the same keys and admin token', async () => {
    // Frozen, genesis happens at the same instant both times: the accounts are identical.
    const running = await start({ seed: 'snapshot-reset', frozenAt: Date.UTC(2026, 0, 1) })
    const { direct, admin, sandbox } = running
    const genesisAccounts = (await admin.ledger.accounts()).items
    const genesisMerchants = sandbox.merchants
    const payment = await createPayment(direct, 'Before the reset')
    await direct.sandbox.pay(payment.id)
    await admin.sandbox.createMerchant({ name: 'Extra', settlement_mode: 'direct' })
    await admin.sandbox.advanceClock({ seconds: 60 })

    const reset = await admin.sandbox.reset()
    expect(reset.merchants).toEqual(genesisMerchants)
    expect(sandbox.merchants).toEqual(genesisMerchants)
    expect((await direct.payments.list()).meta.totalItems).toBe(0)
    expect((await admin.sandbox.merchants()).items.map((m) => m.name)).toEqual(['Acme Store', 'Bazaar Marketplace'])
    expect((await admin.ledger.accounts()).items).toEqual(genesisAccounts)
    expect(reset.clock).toEqual({ now: '2026-01-01T00:00:00.000Z', frozenAt: '2026-01-01T00:00:00.000Z' })
    await expectConsistent(running)
  })

  it("reset without a seed keeps the genesis merchants' ids and keys (a rotated secret included), so clients holding them keep working", async () => {
    const running = await start({ frozenAt: Date.UTC(2026, 0, 1) })
    const { direct, admin, sandbox } = running
    const [acme, bazaar] = sandbox.merchants
    const rotated = await admin.sandbox.rotateSecret(bazaar!.id)
    // Made at the genesis instant (the clock is frozen), so creation order cannot tell it from them.
    await admin.sandbox.createMerchant({ name: 'Extra', settlement_mode: 'direct' })
    await createPayment(direct, 'Before the reset')
    const genesisAccounts = (await admin.ledger.accounts()).items.map((a) => a.publicKey)

    const reset = await admin.sandbox.reset()
    const kept = [acme!, { ...bazaar!, apiSecret: rotated.apiSecret }]
    expect(reset.merchants).toEqual(kept)
    expect(sandbox.merchants).toEqual(kept)
    expect((await direct.payments.list()).meta.totalItems).toBe(0)
    expect((await admin.sandbox.merchants()).items.map((m) => [m.name, m.id])).toEqual([
      ['Acme Store', acme!.id],
      ['Bazaar Marketplace', bazaar!.id],
    ])
    // Everything else is a new genesis (no seed): new ledger accounts.
    const accounts = (await admin.ledger.accounts()).items.map((a) => a.publicKey)
    expect(accounts.filter((a) => genesisAccounts.includes(a))).toEqual([])
    // And again: the kept ones are kept once more.
    expect((await admin.sandbox.reset()).merchants).toEqual(kept)
    await createPayment(direct, 'After the reset')
    await expectConsistent(running)
  })

  it('refuses bad names, duplicates, unknown snapshots and callers without the admin token', async () => {
    const { admin, direct } = await start()
    expect((await refusal(admin.snapshots.save({ name: '../escape' }))).statusCode).toBe(400)
    expect((await refusal(admin.snapshots.save({ name: '' }))).statusCode).toBe(400)
    await admin.snapshots.save({ name: 'one' })
    const duplicate = await refusal(admin.snapshots.save({ name: 'one' }))
    expect(duplicate.statusCode).toBe(409)
    expect(duplicate.message).toBe(
      'A snapshot named "one" exists already (replace: true overwrites it; from the CLI: snapshot save --force)',
    )
    expect((await admin.snapshots.save({ name: 'one', replace: true })).name).toBe('one')
    expect((await refusal(admin.snapshots.restore('missing'))).statusCode).toBe(404)
    expect((await refusal(direct.request('GET', '/sandbox/snapshots'))).statusCode).toBe(401)
    expect((await refusal(direct.request('POST', '/sandbox/reset'))).statusCode).toBe(401)

    await admin.snapshots.save({ name: 'Two.kept-2' })
    await admin.snapshots.remove('one')
    expect((await refusal(admin.snapshots.remove('one'))).statusCode).toBe(404)
    expect((await refusal(admin.request('GET', '/sandbox/snapshots/one', { auth: 'admin' }))).statusCode).toBe(404)
    expect((await admin.snapshots.list()).items.map((s) => s.name)).toEqual(['Two.kept-2'])
  })
})

// What only SQLite has: snapshot files (their mode, a damaged one) and a database in memory.
// Registered on SQLite only rather than skipped on PostgreSQL, whose snapshots are schemas:
// test/postgres/snapshot-replicas.test.ts refuses a damaged one there.
if (testBackend === 'sqlite') {
  describe('sandbox snapshot files (SQLite)', () => {
    it('keeps each snapshot in a private file, and refuses a damaged one before anything is touched', async () => {
      const dir = temporaryDir()
      const { admin } = await start({ db: path.join(dir, 'sandbox.db') })
      await admin.snapshots.save({ name: 'one' })
      const snapshots = path.join(dir, 'snapshots')
      expect(fs.statSync(path.join(snapshots, 'one.sqlite')).mode & 0o777).toBe(0o600)

      fs.writeFileSync(path.join(snapshots, 'broken.sqlite'), 'not a database')
      const broken = await refusal(admin.snapshots.restore('broken'))
      expect(broken.statusCode).toBe(422)
      expect((await admin.sandbox.health()).status).toBe('ok')

      await admin.snapshots.remove('one')
      expect((await admin.snapshots.list()).items.map((s) => s.name)).toEqual(['broken'])
    })

    it("keeps an in-memory sandbox's snapshots in a new private folder, never a predictable one someone made first", async () => {
      // The folders the old predictable names gave, made first by someone else, open to all.
      const planted = Array.from({ length: 20 }, (_, i) => path.join(os.tmpdir(), `paybox-snapshots-${process.pid}-${i + 1}`))
      for (const dir of planted) {
        fs.mkdirSync(dir, { recursive: true })
        fs.chmodSync(dir, 0o777)
      }
      try {
        const { admin } = await start({ db: ':memory:' })
        const name = `private-${process.pid}-${Date.now()}`
        await admin.snapshots.save({ name: name })
        const holders = fs
          .readdirSync(os.tmpdir())
          .map((entry) => path.join(os.tmpdir(), entry))
          .filter((dir) => path.basename(dir).startsWith('paybox-snapshots-') && fs.existsSync(path.join(dir, `${name}.sqlite`)))
        expect(holders).toHaveLength(1)
        expect(planted).not.toContain(holders[0])
        expect(fs.statSync(holders[0]!).mode & 0o777).toBe(0o700)
        expect(fs.statSync(path.join(holders[0]!, `${name}.sqlite`)).mode & 0o777).toBe(0o600)
        for (const dir of planted) expect(fs.readdirSync(dir)).toEqual([])
      } finally {
        for (const dir of planted) fs.rmSync(dir, { recursive: true, force: true })
      }
    })

    it('creates every snapshot file 0600 from the start, before any byte of the database is in it', async () => {
      const dir = temporaryDir()
      const { admin } = await start({ db: path.join(dir, 'sandbox.db') })
      const snapshots = path.join(dir, 'snapshots')
      const opened: Array<{ file: string; flags: unknown; mode: unknown; size: number }> = []
      const real = fs.openSync
      const spy = vi.spyOn(fs, 'openSync').mockImplementation((...args: Parameters<typeof fs.openSync>) => {
        const fd = real(...args)
        const file = String(args[0])
        if (file.startsWith(snapshots))
          opened.push({ file: path.basename(file), flags: args[1], mode: args[2], size: fs.fstatSync(fd).size })
        return fd
      })
      try {
        await admin.snapshots.save({ name: 'from-the-start' })
      } finally {
        spy.mockRestore()
      }
      // Made new (wx: it fails if anything is there) with 0600 before SQLite wrote into it; umask only takes bits away.
      expect(opened).toEqual([{ file: `from-the-start.sqlite.${process.pid}.partial`, flags: 'wx', mode: 0o600, size: 0 }])
      expect(fs.readdirSync(snapshots)).toEqual(['from-the-start.sqlite'])
      expect(fs.statSync(path.join(snapshots, 'from-the-start.sqlite')).mode & 0o777).toBe(0o600)
    })

    it('refuses a snapshot folder that other users may enter, or that is a link, writing and restoring nothing there', async () => {
      const dir = temporaryDir()
      const open = path.join(dir, 'open')
      fs.mkdirSync(open)
      fs.chmodSync(open, 0o777)
      const { admin } = await start({ db: path.join(dir, 'sandbox.db'), snapshotDir: open })
      const saved = await refusal(admin.snapshots.save({ name: 'one' }))
      expect(saved.statusCode).toBe(422)
      expect(saved.message).toBe(
        `The snapshot folder ${open} may be entered by other users (mode 0777): use a folder of your own with mode 0700 (chmod 700 it)`,
      )
      expect(fs.readdirSync(open)).toEqual([])
      // A snapshot someone else could have planted is not restored either.
      fs.writeFileSync(path.join(open, 'planted.sqlite'), 'anything')
      expect((await refusal(admin.snapshots.restore('planted'))).message).toContain('may be entered by other users')

      const target = temporaryDir()
      const linked = path.join(dir, 'linked')
      fs.symlinkSync(target, linked)
      const viaLink = await start({ db: path.join(dir, 'other.db'), snapshotDir: linked })
      expect((await refusal(viaLink.admin.snapshots.save({ name: 'one' }))).message).toBe(
        `The snapshot folder ${linked} is not a folder (a link or a file): use a folder of your own with mode 0700 (chmod 700 it)`,
      )
      expect(fs.readdirSync(target)).toEqual([])
      expect((await admin.sandbox.health()).status).toBe('ok')
    })

    it('works for a sandbox in memory too', async () => {
      const running = await start({ db: ':memory:' })
      const { direct, admin } = running
      const kept = await createPayment(direct, 'Kept')
      await admin.snapshots.save({ name: 'memory' })
      await createPayment(direct, 'Dropped')
      await admin.snapshots.restore('memory')
      expect((await expectConsistent(running)).map((p) => p.id)).toEqual([kept.id])
    })
  })
}
