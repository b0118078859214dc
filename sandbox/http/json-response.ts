// Answers a JSON text in one write: what res.json / res.send end with, without their per-call
// work (content-type negotiation, charset rewriting, freshness checks that never apply here).
import type http from 'node:http'

export function sendJson(res: http.ServerResponse, status: number, body: string, headers: Record<string, string> = {}): void {
  res.writeHead(status, { ...headers, 'content-type': 'application/json; charset=utf-8', 'content-length': Buffer.byteLength(body) })
  res.end(body)
}
