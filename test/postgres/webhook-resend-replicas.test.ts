// A resend is sent by the replica that received it (issue 25): it is written claimed by that
// replica (newClaim), so no other replica's dispatcher takes it meanwhile. Resends asked through
// each of two replicas are logged with `claimed_by` naming the replica that received them, and
// each reaches the receiver once.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { WEBHOOK_DELIVERY_ID_HEADER } from '../../src/api/headers.js'
import { queryFromOutside } from '../../harness/outside-db.js'
import { createTestDatabase, type TestDatabase } from '../../harness/postgres.js'
import { signed, type Merchant } from '../../harness/sandbox-checks.js'
import { spawnSandbox, type SandboxProcess } from '../../harness/sandbox-process.js'
import { waitFor } from '../../harness/wait.js'
import { startWebhookReceiver, webhookData, type WebhookReceiver } from '../../harness/webhook-receiver.js'

/** Resends asked through each replica (both together stay under the merchant's 10 a minute). */
const RESENDS_EACH = 4

interface LoggedDelivery {
  id: string
  status: string
  resend_of: string | null
  claimed_by: string | null
}

describe('a resend, on two replicas', () => {
  let database: TestDatabase
  let replicas: SandboxProcess[]
  let merchant: Merchant
  let receiver: WebhookReceiver

  beforeAll(async () => {
    database = await createTestDatabase('paybox_webhook_resend')
    replicas = [
      await spawnSandbox(['--port', '0', '--db', database.url, '--ledger-close', 'instant', '--quiet']),
      await spawnSandbox(['--port', '0', '--db', database.url, '--ledger-close', 'instant', '--quiet']),
    ]
    merchant = replicas[0]!.banner.merchants.find((m) => m.settlement_mode === 'direct')!
    receiver = await startWebhookReceiver(merchant.apiSecret)
  }, 60_000)
  afterAll(async () => {
    for (const replica of replicas ?? []) await replica.stop()
    await receiver?.close()
    await database?.drop()
  })

  /** Which replica a delivery's claimed_by names (host:pid). */
  const replicaOf = (claimedBy: string | null) => replicas.findIndex((replica) => claimedBy?.endsWith(`:${replica.process.child.pid}`))
  const logged = (ids: readonly string[]) =>
    queryFromOutside<LoggedDelivery>(
      database.url,
      'select id, status, resend_of, claimed_by from webhook_deliveries where id = any(?) order by sequence',
      [ids],
    )

  it('is sent by the replica that received it, once', async () => {
    const created = await signed(replicas[0]!.banner.baseUrl, merchant, 'POST', '/payments', {
      amount: { value: 1200, currency: 'USD' },
      description: 'Resent',
      webhookUrl: receiver.url,
    })
    expect(created.status, created.text).toBe(200)
    const paymentId = (created.json as { id: string }).id
    const [original] = await waitFor('the payment’s delivery done', async () => {
      const rows = await queryFromOutside<LoggedDelivery>(
        database.url,
        'select id, status, resend_of, claimed_by from webhook_deliveries where subject_id = ?',
        [paymentId],
      )
      return rows.length === 1 && rows[0]!.status === 'success' ? rows : undefined
    })

    // Through A and B in turn, each answered once its replica has sent it.
    const resent: Array<{ id: string; via: number }> = []
    for (let i = 0; i < 2 * RESENDS_EACH; i++) {
      const via = i % 2
      const answer = await signed(
        replicas[via]!.banner.baseUrl,
        merchant,
        'POST',
        `/merchants/${merchant.id}/webhook-logs/${original!.id}/resend`,
      )
      expect(answer.status, answer.text).toBe(200)
      resent.push({ id: (answer.json as { id: string }).id, via })
    }

    const rows = await waitFor('every resend logged', async () => {
      const found = await logged(resent.map((r) => r.id))
      return found.length === resent.length && found.every((row) => row.status === 'success') ? found : undefined
    })
    const sentBy = Object.fromEntries(rows.map((row) => [row.id, replicaOf(row.claimed_by)]))
    expect(resent.map((r) => sentBy[r.id])).toEqual(resent.map((r) => r.via))
    expect(rows.every((row) => row.resend_of === original!.id)).toBe(true)
    // Each resend reached the receiver once, under its own delivery id.
    const arrivals = receiver.received
      .filter((request) => webhookData(request.raw).id === paymentId)
      .map((request) => request.headers[WEBHOOK_DELIVERY_ID_HEADER] as string)
    expect(arrivals.toSorted()).toEqual([original!.id, ...resent.map((r) => r.id)].toSorted())
  }, 60_000)
})
