// A delivery is sent once even when a read of the outbox that began before its log committed
// returns it as still pending afterwards (on PostgreSQL the read runs beside that transaction).
import { describe, expect, it } from 'vitest'
import type { EventSubjectType, WebhookDeliveryRow } from '../../sandbox/db/schema.js'
import { DeliveryQueue } from '../../sandbox/webhooks/delivery-queue.js'
import { pendingDelivery } from '../../sandbox/webhooks/webhook-events.js'

const delivery = (sequence: number, paymentId = `pt_${sequence}`, subjectType: EventSubjectType = 'payment'): WebhookDeliveryRow =>
  pendingDelivery({
    id: `wh_${sequence}`,
    sequence,
    merchant_id: 'm_1',
    subject_type: subjectType,
    subject_id: paymentId,
    event_type: 'transaction_created',
    url: 'http://127.0.0.1:9/webhooks',
    request_payload: '{}',
    created_at: 0,
  })

describe('the delivery queue', () => {
  it('does not take again a logged delivery that a stale read returns as pending', async () => {
    const queue = new DeliveryQueue()
    const first = delivery(1)
    expect(queue.addNewer([first])).toBe(true)
    const [taken] = queue.takeReady()
    expect(taken?.id).toBe(first.id)
    // A read that began before the log committed: it holds the delivery as pending.
    let answerRead: (rows: WebhookDeliveryRow[]) => void = () => {}
    const staleRead = queue.read(() => new Promise((resolve) => (answerRead = resolve)))
    queue.answered(first)
    queue.finished(first)
    answerRead([first, delivery(2)])

    queue.markStale()
    queue.refreshIfStale()
    expect(queue.enqueue((await staleRead).rows)).toBe(true)
    expect(queue.takeReady().map((row) => row.id)).toEqual(['wh_2'])
  })

  it('still takes a pending delivery that was never logged', () => {
    const queue = new DeliveryQueue()
    queue.addNewer([delivery(1), delivery(2, 'pt_1')])
    // One payment's deliveries go one at a time: the second waits for the first.
    expect(queue.takeReady().map((row) => row.id)).toEqual(['wh_1'])
    queue.answered(delivery(1))
    queue.finished(delivery(1))
    expect(queue.takeReady().map((row) => row.id)).toEqual(['wh_2'])
  })

  it("holds a subject's next delivery behind its first, whatever the subject's type, and only that subject's", () => {
    const queue = new DeliveryQueue()
    // An invoice whose id is a payment's: a different subject, not held by the payment.
    queue.addNewer([delivery(1, 'x_1', 'invoice'), delivery(2, 'x_1', 'invoice'), delivery(3, 'x_1', 'payment')])
    expect(queue.takeReady().map((row) => row.id)).toEqual(['wh_1', 'wh_3'])
    queue.answered(delivery(1, 'x_1', 'invoice'))
    expect(queue.takeReady()).toEqual([])
    queue.finished(delivery(1, 'x_1', 'invoice'))
    expect(queue.takeReady().map((row) => row.id)).toEqual(['wh_2'])
  })
})
