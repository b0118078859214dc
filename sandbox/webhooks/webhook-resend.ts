// A resend's log entry: the original's payload and URL as a new pending delivery of the same
// subject, written before it is sent so that the log shows it whatever happens next.
import type { Kysely } from 'kysely'
import { runTransaction } from '../db/database.js'
import type { Database, WebhookDeliveryRow } from '../db/schema.js'
import { newDeliveryIdentity } from './webhook-events.js'
import { insertDelivery } from './webhook-repository.js'

/** The claim a resend is written under (PostgreSQL), so that only the replica that received it sends it. */
export type ResendClaim = Pick<WebhookDeliveryRow, 'claim_token' | 'claimed_until' | 'claimed_by'>

const UNCLAIMED: ResendClaim = { claim_token: null, claimed_until: null, claimed_by: null }

/** Writes the resend of `original`; `claim` runs before the row is visible, so the queue leaves it to the caller. */
export function recordResend(
  db: Kysely<Database>,
  original: WebhookDeliveryRow,
  now: number,
  claim: (id: string) => void,
  claimed: ResendClaim = UNCLAIMED,
): Promise<WebhookDeliveryRow> {
  return runTransaction(db, async (trx) => {
    const row: WebhookDeliveryRow = {
      ...original,
      ...(await newDeliveryIdentity(trx, { type: original.subject_type, id: original.subject_id })),
      status: 'pending',
      response_body: null,
      http_status: null,
      error_message: null,
      attempt_count: original.attempt_count + 1,
      duration_ms: null,
      resend_of: original.id,
      last_attempt_at: null,
      created_at: now,
      updated_at: now,
      ...claimed,
    }
    claim(row.id)
    await insertDelivery(trx, row)
    return row
  })
}
