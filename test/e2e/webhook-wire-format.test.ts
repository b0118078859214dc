// The three spec events' wire format pinned byte for byte: with --seed and a frozen clock, each
// delivery's id, signature header and body are compared with a checked-in file, so a change to
// how events are built, queued or signed cannot alter what receivers get without this failing.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Payment, WebhookDelivery } from '../../src/client/types.js'
import { WEBHOOK_SIGNATURE_HEADER } from '../../src/signing.js'
import { startTestSandbox, type TestSandbox } from '../../harness/sandbox.js'
import { waitFor } from '../../harness/wait.js'
import { startWebhookReceiver, type WebhookReceiver } from '../../harness/webhook-receiver.js'

const FROZEN_AT = Date.UTC(2027, 0, 1)

describe('webhook wire format', () => {
  let sandbox: TestSandbox
  let receiver: WebhookReceiver
  beforeAll(async () => {
    sandbox = await startTestSandbox({ seed: 'wire-format', frozenAt: FROZEN_AT })
    receiver = await startWebhookReceiver(sandbox.merchants[0]!.apiSecret)
  })
  afterAll(async () => {
    await sandbox?.stop()
    await receiver?.close()
  })

  it('sends transaction_created, transaction_updated and transaction_failed with the same ids, signatures and bytes as before', async () => {
    const merchantId = sandbox.merchants[0]!.id
    const create = (description: string) =>
      sandbox.direct.payments.create({
        amount: { value: 1250, currency: 'EUR' },
        description,
        webhookUrl: receiver.url,
        metadata: { order: description },
      })
    const paid = await create('Order 1')
    await sandbox.direct.request<Payment>('POST', `/sandbox/payments/${paid.id}/pay`, { body: {} })
    const failed = await create('Order 2')
    await sandbox.direct.request<Payment>('POST', `/sandbox/payments/${failed.id}/fail`, { body: {} })

    const logged = await waitFor('every delivery finished', async () => {
      const { items } = await sandbox.direct.request<{ items: WebhookDelivery[] }>('GET', `/merchants/${merchantId}/webhook-logs`, {
        query: { limit: 100 },
      })
      return items.length >= 4 && items.every((item) => item.status === 'success') ? items.reverse() : undefined
    })
    expect(new Set(logged.map((d) => d.event_type))).toEqual(new Set(['transaction_created', 'transaction_updated', 'transaction_failed']))
    const wire = await Promise.all(
      logged.map(async (summary) => {
        const { request_payload: body } = await sandbox.direct.request<WebhookDelivery>(
          'GET',
          `/merchants/${merchantId}/webhook-logs/${summary.id}`,
        )
        const sent = receiver.received.find((r) => r.raw.toString('utf8') === body)
        expect(sent?.verified, `delivery ${summary.id} reached the receiver, signed`).toBe(true)
        return [
          `${summary.event_type} ${summary.checkout_id} ${summary.id}`,
          `${WEBHOOK_SIGNATURE_HEADER}: ${String(sent!.headers[WEBHOOK_SIGNATURE_HEADER])}`,
          body,
        ].join('\n')
      }),
    )
    await expect(`${wire.join('\n\n')}\n`).toMatchFileSnapshot('./__snapshots__/webhook-wire-format.txt')
  })
})
