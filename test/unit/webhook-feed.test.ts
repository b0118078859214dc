// What a replica's listeners hear of finished deliveries (webhook-feed.ts): its own as they are
// logged, another replica's as announced. Progress (the health check's only need) is heard without
// reading anything; the rows of another replica's deliveries are read only for a listener of them.
import { describe, expect, it } from 'vitest'
import type { WebhookDeliveryRow } from '../../sandbox/db/schema.js'
import { WebhookFeed } from '../../sandbox/webhooks/webhook-feed.js'

const row = (id: string) => ({ id }) as WebhookDeliveryRow

describe('the webhook feed', () => {
  it("tells progress and delivery listeners of this replica's deliveries", () => {
    const feed = new WebhookFeed()
    const heard: string[] = []
    feed.onProgress(() => heard.push('progress'))
    feed.onDelivery((delivery) => heard.push(delivery.id))
    feed.delivered(row('wh_1'))
    expect(heard).toEqual(['progress', 'wh_1'])
  })

  it("reads nothing for another replica's deliveries while only progress is listened to", async () => {
    const feed = new WebhookFeed()
    let progress = 0
    let reads = 0
    feed.onProgress(() => progress++)
    await feed.heardDelivered(async () => (reads++, [row('wh_2')]))
    expect({ progress, reads }).toEqual({ progress: 1, reads: 0 })
  })

  it("reads another replica's deliveries for a delivery listener, and stops once it leaves", async () => {
    const feed = new WebhookFeed()
    const heard: string[] = []
    let reads = 0
    const read = async () => (reads++, [row('wh_3'), row('wh_4')])
    const stop = feed.onDelivery((delivery) => heard.push(delivery.id))
    await feed.heardDelivered(read)
    stop()
    await feed.heardDelivered(read)
    expect({ heard, reads }).toEqual({ heard: ['wh_3', 'wh_4'], reads: 1 })
  })
})
