// A sandbox database holding many payments of one merchant, for the list and start-up figures.
// The schema and merchants come from a real sandbox start (the real migrations and bootstrap);
// the payments are written straight into SQLite in batched transactions, their secondary
// indexes dropped during the load and rebuilt after (a sorted build is far faster than a
// million random inserts). The file is cached in bench/.cache/ so reruns skip this.
import { randomBytes } from 'node:crypto'
import fs from 'node:fs'
import path from 'node:path'
import BetterSqlite3 from 'better-sqlite3'
import { v7 as uuidv7 } from 'uuid'
import { MEMO_RANDOM_BYTES, paymentMemo } from '../../sandbox/payments/payment-service.js'
import { directMerchant, ROOT, spawnSandbox } from './processes.js'

/** Bump when the seeded rows change shape, so stale caches are not reused. */
const SEED_VERSION = 2
const BATCH = 10_000
const DAY_MS = 86_400_000

/** How the seeded payments spread over the list filters. */
export const SEEDED_STORES = ['store-0', 'store-1', 'store-2', 'store-3']
const STATUSES: Array<[status: string, share: number]> = [
  ['paid', 0.5],
  ['open', 0.2],
  ['expired', 0.2],
  ['underpaid', 0.05],
  ['failed', 0.03],
  ['canceled', 0.02],
]

export interface SeededDatabase {
  file: string
  merchantId: string
  /** createdAt of the oldest and newest payment (epoch ms). */
  from: number
  to: number
}

export async function seededDatabase(count: number, log: (line: string) => void): Promise<SeededDatabase> {
  const cacheDir = path.join(ROOT, 'bench', '.cache')
  const file = path.join(cacheDir, `payments-${count}-v${SEED_VERSION}.db`)
  const metaFile = `${file}.json`
  if (fs.existsSync(file) && fs.existsSync(metaFile)) return JSON.parse(fs.readFileSync(metaFile, 'utf8')) as SeededDatabase

  fs.mkdirSync(cacheDir, { recursive: true })
  const building = `${file}.building`
  for (const suffix of ['', '-wal', '-shm']) fs.rmSync(`${building}${suffix}`, { force: true })
  log(`  seeding ${count.toLocaleString('en-US')} payments into ${path.relative(ROOT, file)} (cached for later runs)`)
  const started = performance.now()

  // The real schema and merchants: one start of the built sandbox on the new file.
  const sandbox = await spawnSandbox(building)
  const merchant = directMerchant(sandbox.banner)
  await sandbox.stop()

  const db = new BetterSqlite3(building)
  db.pragma('journal_mode = WAL')
  db.pragma('synchronous = OFF')
  const merchantRow = db.prepare('select id, name, account_id from merchants where id = ?').get(merchant.id) as {
    id: string
    name: string
    account_id: string
  }
  const indexes = db
    .prepare("select name, sql from sqlite_master where type = 'index' and tbl_name = 'payments' and sql is not null")
    .all() as Array<{ name: string; sql: string }>
  for (const index of indexes) db.exec(`drop index "${index.name}"`)

  const to = Date.now() - DAY_MS
  const from = to - 180 * DAY_MS
  const step = (to - from) / count
  const insert = db.prepare(`insert into payments (
      id, merchant_id, status, settlement_status, amount_value, amount_currency, usdc_amount, description, merchant_name,
      redirect_url, cancel_url, webhook_url, locale, metadata, partner_id, store_id, memo, destination, auth_token, short_code,
      amount_paid, settlement_amount, settlement_fee, history, created_at, updated_at, expires_at, usdc_received, settled_at
    ) values (?, ?, ?, ?, ?, 'USD', ?, ?, ?, 'https://shop.example/thanks', 'https://shop.example/cart', null, 'en', ?, null, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`)
  const insertBatch = db.transaction((start: number, end: number) => {
    const random = randomBytes((end - start) * 40)
    for (let i = start; i < end; i++) {
      const r = random.subarray((i - start) * 40, (i - start + 1) * 40)
      const createdAt = Math.floor(from + i * step)
      const status = statusOf(r[0]! / 256)
      const value = 500 + (r.readUInt16BE(1) % 20_000)
      const usdc = value * 100_000
      const paid = status === 'paid' ? value : status === 'underpaid' ? Math.floor(value / 2) : 0
      const settled = status === 'paid'
      const history = JSON.stringify([
        { time: createdAt, status: 'success', description: 'Payment created' },
        ...(status === 'open' ? [] : [{ time: createdAt + 60_000, status: 'success', description: `Payment ${status}` }]),
      ])
      insert.run(
        `pt_${uuidv7({ msecs: createdAt, random: r.subarray(3, 19) }).replaceAll('-', '')}`,
        merchantRow.id,
        status,
        settled ? 'settled' : status === 'open' ? 'open' : status,
        value,
        usdc,
        `Order #${i}`,
        merchantRow.name,
        JSON.stringify({ orderId: `order-${i}` }),
        i % 5 === 4 ? null : SEEDED_STORES[i % SEEDED_STORES.length],
        paymentMemo(createdAt, r.subarray(19, 19 + MEMO_RANDOM_BYTES)),
        merchantRow.account_id,
        r.subarray(24, 40).toString('hex'),
        r.subarray(27, 35).toString('base64url'),
        paid,
        settled ? usdc - usdc / 100 : usdc,
        settled ? usdc / 100 : 0,
        history,
        createdAt,
        createdAt + 60_000,
        // Open payments expire in the future: the sweeper has nothing to do, as on a healthy sandbox.
        status === 'open' ? to + 365 * DAY_MS : createdAt + 30 * 60_000,
        paid * 100_000,
        settled ? createdAt + 120_000 : null,
      )
    }
  })
  for (let start = 0; start < count; start += BATCH) insertBatch(start, Math.min(count, start + BATCH))
  for (const index of indexes) db.exec(index.sql)
  db.pragma('wal_checkpoint(TRUNCATE)')
  db.close()
  for (const suffix of ['-wal', '-shm']) fs.rmSync(`${building}${suffix}`, { force: true })
  fs.renameSync(building, file)
  const seeded: SeededDatabase = { file, merchantId: merchantRow.id, from, to }
  fs.writeFileSync(metaFile, JSON.stringify(seeded))
  log(`  seeded in ${((performance.now() - started) / 1000).toFixed(1)} s`)
  return seeded
}

function statusOf(u: number): string {
  let cumulative = 0
  for (const [status, share] of STATUSES) {
    cumulative += share
    if (u < cumulative) return status
  }
  return 'paid'
}
