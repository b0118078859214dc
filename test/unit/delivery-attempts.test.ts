// The stored egress rule that deliveries go under (delivery-attempts.ts) is read once for all the
// batches a dispatcher sends within EGRESS_READ_EVERY_MS of wall time, and read again after: a
// policy stored meanwhile (a restart with other flags while no other replica serves) applies then.
import { afterEach, expect, it } from 'vitest'
import { ManualClock } from '../../sandbox/clock.js'
import { openDatabase, type SandboxDb } from '../../sandbox/db/database.js'
import { DeliveryAttempts, EGRESS_READ_EVERY_MS } from '../../sandbox/webhooks/delivery-attempts.js'
import { DeliveryLogWriter } from '../../sandbox/webhooks/delivery-log-writer.js'
import { StoredEgress } from '../../sandbox/webhooks/egress-policy.js'
import { saveEgressPolicy } from '../../sandbox/webhooks/egress-policy-repository.js'
import type { WebhookEgress } from '../../sandbox/webhooks/webhook-egress.js'
import { WebhookFeed } from '../../sandbox/webhooks/webhook-feed.js'
import { WebhookSender } from '../../sandbox/webhooks/webhook-sender.js'
import type { Kysely } from 'kysely'
import type { Database } from '../../sandbox/db/schema.js'

/** The real stored egress, counting its reads of the database. */
class CountedEgress extends StoredEgress {
  reads = 0
  override read(db: Kysely<Database>): Promise<WebhookEgress> {
    this.reads++
    return super.read(db)
  }
}

let db: SandboxDb | undefined
const sender = new WebhookSender()
afterEach(async () => {
  await db?.destroy()
  await sender.close()
})

it('reads the stored egress rule once for the batches sent within its window, and again after it', async () => {
  db = await openDatabase({ file: ':memory:' })
  const wallClock = new ManualClock(0)
  const egress = new CountedEgress({ shared: false, allowWebhookTo: [] })
  const logWriter = new DeliveryLogWriter({ db, feed: new WebhookFeed() })
  const attempts = new DeliveryAttempts({ db, clock: wallClock, wallClock, sender, egress, logWriter })
  const local = await attempts.lookups().egressOf()
  await attempts.lookups().egressOf()
  wallClock.advance(EGRESS_READ_EVERY_MS - 1)
  expect(await attempts.lookups().egressOf()).toBe(local)
  expect(egress.reads).toBe(1)

  await saveEgressPolicy(db, { shared: 1, allow_webhook_to: '[]' })
  wallClock.advance(1)
  const shared = await attempts.lookups().egressOf()
  expect(egress.reads).toBe(2)
  expect(shared).not.toBe(local)
  expect(shared.urlRefusal('http://127.0.0.1:9/hook')).toBeDefined()
  expect(local.urlRefusal('http://127.0.0.1:9/hook')).toBeUndefined()
})
