// The bench's control: the least a server can do for the same request. Bare node:http that
// verifies the same digest signature, writes one row of a payment's size to SQLite (WAL, the
// sandbox's synchronous setting) and answers with a JSON body of the sandbox's size; and the
// read counterpart. Its throughput is what the sandbox's figures are divided by.
// Usage: node --import tsx bench/servers/control-server.ts <db file> [--durable]
// Prints {"url", "apiKey", "apiSecret"} once it listens on 127.0.0.1.
import { randomBytes } from 'node:crypto'
import http from 'node:http'
import type { AddressInfo } from 'node:net'
import BetterSqlite3 from 'better-sqlite3'
import { v7 as uuidv7 } from 'uuid'
import { answer, authenticate as checkSignature, newItem, resource } from './control-common.js'

const [file = ':memory:', ...flags] = process.argv.slice(2)
const db = new BetterSqlite3(file)
db.pragma('journal_mode = WAL')
db.pragma(`synchronous = ${flags.includes('--durable') ? 'FULL' : 'NORMAL'}`)
db.pragma('busy_timeout = 10000')
db.exec(`
  create table if not exists merchants (id text primary key, api_key text not null unique, api_secret text not null);
  create table if not exists items (id text primary key, merchant_id text not null, data text not null, created_at integer not null);
  create index if not exists items_by_merchant_created on items (merchant_id, created_at, id);
`)
const apiKey = `pk_control_${randomBytes(8).toString('hex')}`
const apiSecret = `sk_control_${randomBytes(16).toString('hex')}`
const merchantId = uuidv7()
db.prepare('insert into merchants (id, api_key, api_secret) values (?, ?, ?)').run(merchantId, apiKey, apiSecret)

const findMerchant = db.prepare<[string], { id: string; api_secret: string }>('select id, api_secret from merchants where api_key = ?')
const insertItem = db.prepare('insert into items (id, merchant_id, data, created_at) values (?, ?, ?, ?)')
const findItem = db.prepare<[string, string], { id: string; data: string; created_at: number }>(
  'select id, data, created_at from items where id = ? and merchant_id = ?',
)

function authenticate(req: http.IncomingMessage, body: string): { id: string } | undefined {
  return checkSignature(req, body, (key) => findMerchant.get(key))
}

const server = http.createServer((req, res) => {
  const chunks: Buffer[] = []
  req.on('data', (chunk: Buffer) => chunks.push(chunk))
  req.on('end', () => {
    const body = Buffer.concat(chunks).toString('utf8')
    const merchant = authenticate(req, body)
    if (!merchant) return answer(res, 401, { statusCode: 401, reason: 'Unauthorized', message: 'Bad signature' })
    if (req.method === 'POST' && req.url === '/control/items') {
      const item = newItem(res, body)
      if (!item) return
      insertItem.run(item.id, merchant.id, item.data, item.now)
      return answer(res, 200, resource(item.id, item.now, item.data))
    }
    const read = req.method === 'GET' ? /^\/control\/items\/([\w-]+)$/.exec(req.url ?? '') : null
    if (read) {
      const item = findItem.get(read[1]!, merchant.id)
      return item
        ? answer(res, 200, resource(item.id, item.created_at, item.data))
        : answer(res, 404, { statusCode: 404, reason: 'Not Found', message: 'No item' })
    }
    answer(res, 404, { statusCode: 404, reason: 'Not Found', message: 'No route' })
  })
})

server.listen(0, '127.0.0.1', () => {
  const { port } = server.address() as AddressInfo
  process.stdout.write(`${JSON.stringify({ url: `http://127.0.0.1:${port}`, apiKey, apiSecret })}\n`)
})
process.on('SIGTERM', () => {
  server.close(() => db.close())
  server.closeAllConnections()
})
