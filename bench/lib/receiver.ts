// A local webhook receiver that records when each payment's webhooks arrive (to count each
// delivery exactly once), and a wait for a condition.
import http from 'node:http'
import type { AddressInfo } from 'node:net'
import type { PayboxClient } from '../../src/client/paybox-client.js'
import { percentile } from './figures.js'
import { waitFor } from '../../harness/wait.js'

export interface Receiver {
  url: string
  /** Wall-clock arrival (ms) of each webhook, by the payment id in its body. */
  arrivals: Map<string, number[]>
  count: number
  close(): Promise<void>
}

export async function startReceiver(): Promise<Receiver> {
  const receiver: Receiver = { url: '', arrivals: new Map(), count: 0, close: async () => {} }
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = []
    req.on('data', (chunk: Buffer) => chunks.push(chunk))
    req.on('end', () => {
      const at = Date.now()
      const id = (JSON.parse(Buffer.concat(chunks).toString('utf8')) as { data: { id: string } }).data.id
      receiver.arrivals.set(id, [...(receiver.arrivals.get(id) ?? []), at])
      receiver.count++
      res.writeHead(200, { 'content-type': 'text/plain' }).end('ok')
    })
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  receiver.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/webhooks`
  receiver.close = () =>
    new Promise<void>((resolve) => {
      server.close(() => resolve())
      server.closeAllConnections()
    })
  return receiver
}

/**
 * Event to receiver: `samples` payments created one after another through `client`, each
 * reporting to the receiver; the time from each payment's createdAt (when its transaction ran,
 * the event committed just after) to its first webhook's arrival.
 */
export async function eventToReceiverLatencies(
  client: PayboxClient,
  receiver: Receiver,
  samples: number,
  request: (i: number) => Parameters<PayboxClient['payments']['create']>[0],
): Promise<{ p50: number; p99: number; ids: string[] }> {
  const created = new Map<string, number>()
  for (let i = 0; i < samples; i++) {
    const payment = await client.payments.create({ ...request(i), webhookUrl: receiver.url })
    created.set(payment.id, Date.parse(payment.createdAt))
  }
  await waitFor('every created event at the receiver', () => [...created.keys()].every((id) => receiver.arrivals.has(id)), 30_000)
  const latencies = [...created].map(([id, at]) => receiver.arrivals.get(id)![0]! - at)
  return { p50: percentile(latencies, 50), p99: percentile(latencies, 99), ids: [...created.keys()] }
}
