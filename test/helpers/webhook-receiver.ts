// A real webhook receiver on a free loopback port, as an integrator would write one: it
// checks X-WEBHOOK-AUTH over the raw bytes received, records every request exactly, and
// answers as the test says: a status and body, or not at all until released (to exceed the
// sandbox's timeout without sleeping).
import http from 'node:http'
import type { AddressInfo } from 'node:net'
import { verifyWebhook } from '../../src/signing.js'

export interface ReceivedWebhook {
  path: string
  headers: http.IncomingHttpHeaders
  /** The body exactly as it arrived. */
  raw: Buffer
  /** Whether the signature verified with the secret the receiver had at the time. */
  verified: boolean
}

export type Answer = { status: number; body?: string } | 'hang'

export interface WebhookReceiver {
  url: string
  received: ReceivedWebhook[]
  /** The secret signatures are checked with. */
  secret: string
  /** How the next requests are answered (default 200 "ok"). */
  answer: (request: ReceivedWebhook) => Answer
  /** Answers every hanging request with 200 and closes. */
  close(): Promise<void>
}

export async function startWebhookReceiver(secret: string): Promise<WebhookReceiver> {
  const hanging = new Set<http.ServerResponse>()
  const receiver: WebhookReceiver = {
    url: '',
    received: [],
    secret,
    answer: () => ({ status: 200, body: 'ok' }),
    close: async () => {
      for (const response of hanging) response.destroy()
      await new Promise<void>((resolve) => server.close(() => resolve()))
    },
  }
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = []
    req.on('data', (chunk: Buffer) => chunks.push(chunk))
    req.on('end', () => {
      const raw = Buffer.concat(chunks)
      const signature = req.headers['x-webhook-auth']
      const request: ReceivedWebhook = {
        path: req.url ?? '',
        headers: req.headers,
        raw,
        verified: verifyWebhook(raw, typeof signature === 'string' ? signature : undefined, receiver.secret),
      }
      receiver.received.push(request)
      const answer = receiver.answer(request)
      if (answer === 'hang') {
        hanging.add(res)
        return
      }
      res.writeHead(answer.status, { 'content-type': 'text/plain' }).end(answer.body ?? '')
    })
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  receiver.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/webhooks`
  return receiver
}
