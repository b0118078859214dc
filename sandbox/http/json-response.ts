// Answers a JSON text in one write: what res.json / res.send end with, without their per-call
// work (content-type negotiation, charset rewriting, freshness checks that never apply here).
import type { Response } from 'express'

export function sendJson(res: Response, status: number, body: string): void {
  res.writeHead(status, { 'content-type': 'application/json; charset=utf-8', 'content-length': Buffer.byteLength(body) })
  res.end(body)
}
