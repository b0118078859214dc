// The request log's bodies are bounded twice: each body is cut at BODY_LIMIT, and past
// LOG_BODY_BUDGET for the whole log the oldest records give theirs up first (their records stay).
import http from 'node:http'
import type { AddressInfo } from 'node:net'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { ManualClock } from '../../sandbox/clock.js'
import { noteRequestBody } from '../../sandbox/http/request-notes.js'
import { BODY_LIMIT, LOG_BODY_BUDGET, RequestLog } from '../../sandbox/request-log/request-log.js'

describe('request log bounds', () => {
  const log = new RequestLog(new ManualClock(Date.now()))
  let server: http.Server
  let url: string

  beforeAll(async () => {
    server = http.createServer((req, res) => {
      log.track(req, res)
      const chunks: Buffer[] = []
      req.on('data', (chunk: Buffer) => chunks.push(chunk))
      req.on('end', () => {
        noteRequestBody(req, Buffer.concat(chunks).toString('utf8'))
        res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ echo: 'r'.repeat(6000) }))
      })
    })
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
  })
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())))

  it('cuts each body, and keeps at most its budget of body text, dropping the oldest bodies first', async () => {
    const body = JSON.stringify({ note: 'q'.repeat(6000) })
    const perRequest = 2 * BODY_LIMIT
    const count = Math.ceil((LOG_BODY_BUDGET * 1.5) / perRequest)
    for (let i = 0; i < count; i++) await (await fetch(`${url}/r/${i}`, { method: 'POST', body })).text()
    await expect.poll(() => log.recent({}, 1)[0]?.path).toBe(`/r/${count - 1}`)
    const { rows } = log.inspect(() => true, 0, count)
    expect(rows).toHaveLength(count)
    const newest = rows[0]!.detail
    expect(newest.requestBody!.length).toBeLessThan(BODY_LIMIT + 80)
    expect(newest.responseBody!.startsWith('{"echo":"rrr')).toBe(true)
    const kept = rows.reduce((sum, { detail }) => sum + (detail.requestBody?.length ?? 0) + (detail.responseBody?.length ?? 0), 0)
    expect(kept).toBeLessThanOrEqual(LOG_BODY_BUDGET)
    expect(rows.at(-1)!.detail.requestBody).toBeNull()
  })
})
