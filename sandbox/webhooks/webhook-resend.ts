// A resend's log entry: the original's payload and URL as a new pending delivery of the same
// subject, written before it is sent so that the log shows it whatever happens next.
import type { Kysely } from 'kysely'
import { runTransaction } from '../db/database.js'
import type { Database, WebhookDeliveryRow } from '../db/schema.js'
import { newDeliveryIdentity, pendingDelivery } from './webhook-events.js'
import { insertDelivery } from './webhook-repository.js'
import { claimResend, type LiveClaim } from './delivery-claim-repository.js'

/**
 * Writes the resend of `original`; `claim` runs before the row is visible, so the queue leaves it
 * to the caller. On PostgreSQL, `claimed` is the claim it is written under (in the same
 * transaction), so that only the replica that received it sends it; it is returned with the row.
 */
export function recordResend(
  db: Kysely<Database>,
  original: WebhookDeliveryRow,
  now: number,
  claim: (id: string) => void,
  claimed?: LiveClaim,
): Promise<WebhookDeliveryRow> {
  return runTransaction(db, async (trx) => {
    const { merchant_id, subject_type, subject_id, event_type, url, request_payload } = original
    const row = pendingDelivery({
      ...(await newDeliveryIdentity(trx, { type: subject_type, id: subject_id })),
      ...{ merchant_id, subject_type, subject_id, event_type, url, request_payload },
      attempt_count: original.attempt_count + 1,
      resend_of: original.id,
      created_at: now,
    })
    claim(row.id)
    await insertDelivery(trx, row)
    if (claimed === undefined) return row
    await claimResend(trx, row, claimed)
    return { ...row, ...claimed }
  })
}
