// The PostgreSQL section's control: bare node:http that verifies the same digest signature,
// writes one row of a payment's size to PostgreSQL with one `insert` (autocommit, the server's
// own durability: synchronous_commit as configured) through a pg pool of the sandbox's default
// size, and answers with a JSON body of the sandbox's size. Its throughput is what the
// PostgreSQL figures are divided by. The merchant is looked up in memory: one insert is the only
// database work per request.
// Usage: node --import tsx bench/servers/postgres-control-server.ts <postgres url> [pool size]
// Prints {"url", "apiKey", "apiSecret"} once it listens on 127.0.0.1.
import { randomBytes } from 'node:crypto'
import http from 'node:http'
import type { AddressInfo } from 'node:net'
import pg from 'pg'
import { v7 as uuidv7 } from 'uuid'
import { answer, authenticate, newItem, resource } from './control-common.js'

const [url, poolSize = '10'] = process.argv.slice(2)
if (!url) throw new Error('Usage: postgres-control-server.ts <postgres url> [pool size]')
const pool = new pg.Pool({ connectionString: url, max: Number(poolSize), application_name: 'paybox-bench-control' })
await pool.query(`
  create table if not exists control_items (id text primary key, merchant_id text not null, data text not null, created_at bigint not null);
  create index if not exists control_items_by_merchant_created on control_items (merchant_id, created_at, id);
`)
const merchant = {
  id: uuidv7(),
  api_key: `pk_control_${randomBytes(8).toString('hex')}`,
  api_secret: `sk_control_${randomBytes(16).toString('hex')}`,
}
const findMerchant = (key: string) => (key === merchant.api_key ? merchant : undefined)
// A named statement: parsed once per connection, as the sandbox's hot statements are.
const insert = { name: 'control_insert', text: 'insert into control_items (id, merchant_id, data, created_at) values ($1, $2, $3, $4)' }

const server = http.createServer((req, res) => {
  const chunks: Buffer[] = []
  req.on('data', (chunk: Buffer) => chunks.push(chunk))
  req.on('end', () => {
    const body = Buffer.concat(chunks).toString('utf8')
    const who = authenticate(req, body, findMerchant)
    if (!who) return answer(res, 401, { statusCode: 401, reason: 'Unauthorized', message: 'Bad signature' })
    if (req.method !== 'POST' || req.url !== '/control/items')
      return answer(res, 404, { statusCode: 404, reason: 'Not Found', message: 'No route' })
    const item = newItem(res, body)
    if (!item) return
    const { id, now, data } = item
    pool.query({ ...insert, values: [id, who.id, data, now] }).then(
      () => answer(res, 200, resource(id, now, data)),
      (error: Error) => answer(res, 500, { statusCode: 500, reason: 'Internal Server Error', message: error.message }),
    )
  })
})

server.listen(0, '127.0.0.1', () => {
  const { port } = server.address() as AddressInfo
  process.stdout.write(`${JSON.stringify({ url: `http://127.0.0.1:${port}`, apiKey: merchant.api_key, apiSecret: merchant.api_secret })}\n`)
})
process.on('SIGTERM', () => {
  server.close(() => void pool.end())
  server.closeAllConnections()
})
