// `receiver: true`: a loopback receiver as a correct integrator writes one (X-WEBHOOK-AUTH checked over
// the raw bytes, 200 or 401) that remembers every request, for expectations to compare with the log.
import http from 'node:http'
import type { AddressInfo } from 'node:net'
import { verifyWebhook, WEBHOOK_SIGNATURE_HEADER } from '../signing.js'

export interface ReceivedDelivery {
  /** The body exactly as it arrived. */
  body: string
  signature: string | undefined
  verified: boolean
}

export interface ScenarioReceiver {
  /** Where deliveries go: http://127.0.0.1:<port>/webhooks. */
  url: string
  received: ReceivedDelivery[]
  close(): Promise<void>
}

/** Bodies larger than this are refused: a webhook payload is a few kilobytes. */
const MAX_BODY_BYTES = 1024 * 1024

export async function startScenarioReceiver(secret: string): Promise<ScenarioReceiver> {
  const received: ReceivedDelivery[] = []
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = []
    let size = 0
    req.on('data', (chunk: Buffer) => {
      size += chunk.length
      if (size <= MAX_BODY_BYTES) chunks.push(chunk)
    })
    req.on('end', () => {
      if (req.method !== 'POST' || size > MAX_BODY_BYTES) {
        res.writeHead(req.method !== 'POST' ? 405 : 413).end()
        return
      }
      const raw = Buffer.concat(chunks)
      const header = req.headers[WEBHOOK_SIGNATURE_HEADER]
      const signature = typeof header === 'string' ? header : undefined
      const verified = verifyWebhook(raw, signature, secret)
      received.push({ body: raw.toString('utf8'), signature, verified })
      res.writeHead(verified ? 200 : 401, { 'content-type': 'text/plain' }).end(verified ? 'ok' : 'invalid signature')
    })
  })
  // Keep-alive sockets would hold close() open until they time out.
  server.keepAliveTimeout = 1
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject)
    server.listen(0, '127.0.0.1', () => resolve())
  })
  const { port } = server.address() as AddressInfo
  return {
    url: `http://127.0.0.1:${port}/webhooks`,
    received,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve())
        server.closeAllConnections()
      }),
  }
}
