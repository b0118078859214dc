// A loopback webhook receiver as an integrator writes one, recording every request exactly; it can
// hold answers until released, to exceed the sandbox's timeout without sleeping.
import http from 'node:http'
import type { AddressInfo } from 'node:net'
import { afterAll, beforeAll, beforeEach } from 'vitest'
import { verifyWebhook } from '../src/signing.js'
import type { WebhookData } from '../src/webhooks/webhook-body.js'

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
  /** Answers every request left hanging so far with 200 "ok". */
  releaseHanging(): void
  /** Answers every hanging request with 200 and closes. */
  close(): Promise<void>
}

const answerOk = (): Answer => ({ status: 200, body: 'ok' })

/** Starts a receiver; `receiver` is the object to make it in (a suite's, filled once it runs); `port` 0 is any free one. */
export async function startWebhookReceiver(secret: string, receiver = {} as WebhookReceiver, port = 0): Promise<WebhookReceiver> {
  const hanging = new Set<http.ServerResponse>()
  Object.assign(receiver, {
    url: '',
    received: [],
    secret,
    answer: answerOk,
    releaseHanging: () => {
      for (const response of hanging) if (!response.destroyed) response.writeHead(200, { 'content-type': 'text/plain' }).end('ok')
      hanging.clear()
    },
    close: async () => {
      for (const response of hanging) response.destroy()
      await new Promise<void>((resolve) => server.close(() => resolve()))
    },
  } satisfies WebhookReceiver)
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
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve))
  receiver.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/webhooks`
  return receiver
}

/** Started after hooks registered earlier (sandboxForSuite's), so `secretOf` can read them; answers 200 again each test. */
export function webhookReceiverForSuite(secretOf: () => string): WebhookReceiver {
  const receiver = {} as WebhookReceiver
  beforeAll(async () => {
    await startWebhookReceiver(secretOf(), receiver)
  })
  beforeEach(() => {
    receiver.answer = answerOk
  })
  afterAll(() => receiver.close())
  return receiver
}

export const webhookData = (raw: Buffer): WebhookData => (JSON.parse(raw.toString('utf8')) as { data: WebhookData }).data

/** What the receiver got about one payment, in the order it arrived. */
export const receivedFor = (receiver: WebhookReceiver, paymentId: string): ReceivedWebhook[] =>
  receiver.received.filter((r) => webhookData(r.raw).id === paymentId)
