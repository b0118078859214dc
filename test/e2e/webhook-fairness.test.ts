// Fair webhook delivery: a receiver that accepts connections and never answers holds at most
// its own merchant's and its own origin's share of the dispatcher, so another merchant's
// delivery still goes out at once, however many of the first merchant's wait behind it.
import net from 'node:net'
import type { AddressInfo } from 'node:net'
import { afterAll, describe, expect, it } from 'vitest'
import { PayboxClient } from '../../src/client/paybox-client.js'
import { MAX_DELIVERIES_PER_MERCHANT } from '../../sandbox/webhooks/delivery-queue.js'
import { MAX_DELIVERIES_PER_ORIGIN } from '../../sandbox/webhooks/webhook-sender.js'
import { sandboxForSuite } from '../../harness/sandbox.js'
import { waitFor } from '../../harness/wait.js'
import { receivedFor, startWebhookReceiver } from '../../harness/webhook-receiver.js'

/** Accepts connections and reads what is sent, never answering. */
async function startBlackHole(): Promise<{ url: string; connections: () => number; close: () => Promise<void> }> {
  const sockets = new Set<net.Socket>()
  let accepted = 0
  const server = net.createServer((socket) => {
    accepted++
    sockets.add(socket)
    socket.on('data', () => {})
    socket.on('close', () => sockets.delete(socket))
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hooks`,
    connections: () => accepted,
    close: async () => {
      for (const socket of sockets) socket.destroy()
      await new Promise<void>((resolve) => server.close(() => resolve()))
    },
  }
}

describe('webhook delivery is fair between merchants and receivers', () => {
  // Far longer than the ~1 s the other merchant may wait: a shared limit would show as this.
  const sandbox = sandboxForSuite({ webhookTimeoutMs: 8_000, webhookPollMs: 20 })
  const closers: Array<() => Promise<void>> = []
  afterAll(async () => {
    for (const close of closers) await close()
  })

  it("delivers merchant B's webhook within a second while 150 of merchant A's wait on a black hole", async () => {
    const hole = await startBlackHole()
    closers.push(hole.close)
    const receiver = await startWebhookReceiver(sandbox.merchants[1]!.apiSecret)
    closers.push(receiver.close)

    for (let i = 0; i < 150; i++) {
      await sandbox.direct.payments.create({
        amount: { value: 100 + i, currency: 'USD' },
        description: `Black-holed ${i}`,
        webhookUrl: hole.url,
      })
    }
    // A's share of the dispatcher is on the wire to the black hole, the rest of A's queued behind it.
    await waitFor('merchant A filling its share', () => hole.connections() >= MAX_DELIVERIES_PER_MERCHANT)

    const started = performance.now()
    const payment = await sandbox.escrow.payments.create({
      amount: { value: 500, currency: 'USD' },
      description: 'Merchant B',
      webhookUrl: receiver.url,
    })
    await waitFor("merchant B's delivery", () => receivedFor(receiver, payment.id).length > 0, 7_000)
    const waited = performance.now() - started
    expect(waited).toBeLessThan(1_000)
    // A never held more than its share of connections.
    expect(hole.connections()).toBeLessThanOrEqual(MAX_DELIVERIES_PER_MERCHANT)
  })

  it('gives a receiver origin that never answers its own share only, however many merchants send to it', async () => {
    const hole = await startBlackHole()
    closers.push(hole.close)
    const third = await sandbox.admin.sandbox.createMerchant({ name: 'Third', settlement_mode: 'direct' })
    const receiver = await startWebhookReceiver(third.apiSecret)
    closers.push(receiver.close)

    // More than the dispatcher's queue holds, and neither merchant reaches its own share.
    for (let i = 0; i < 80; i++) {
      for (const client of [sandbox.direct, sandbox.escrow]) {
        await client.payments.create({ amount: { value: 100 + i, currency: 'USD' }, description: `Shared hole ${i}`, webhookUrl: hole.url })
      }
    }
    await waitFor('the shared receiver filling its share', () => hole.connections() >= MAX_DELIVERIES_PER_ORIGIN)

    const client = new PayboxClient({ baseUrl: sandbox.url, apiKey: third.apiKey, apiSecret: third.apiSecret })
    const started = performance.now()
    const payment = await client.payments.create({
      amount: { value: 500, currency: 'USD' },
      description: 'Third merchant',
      webhookUrl: receiver.url,
    })
    await waitFor("the third merchant's delivery", () => receivedFor(receiver, payment.id).length > 0, 7_000)
    expect(performance.now() - started).toBeLessThan(1_000)
    expect(hole.connections()).toBeLessThanOrEqual(MAX_DELIVERIES_PER_ORIGIN)
  })
})
