// A resend's log entry: the original's payload and URL as a new pending delivery of the same
// subject, written before it is sent so that the log shows it whatever happens next.
import type { Kysely } from 'kysely'
import { onCommit, runTransaction } from '../db/database.js'
import type { Database, WebhookDeliveryRow } from '../db/schema.js'
import { newDeliveryIdentity } from './webhook-events.js'
import { findDeliveryById, insertDelivery } from './webhook-repository.js'

/** Writes the resend of `original`; `claim` runs before the row is visible, so the queue leaves it to the caller. */
export function recordResend(
  db: Kysely<Database>,
  original: WebhookDeliveryRow,
  now: number,
  claim: (id: string) => void,
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
    }
    claim(row.id)
    await insertDelivery(trx, row)
    return row
  })
}

/**
 * The delivery's log entry once it is no longer pending (another replica, the leader, sends it),
 * or as it stands at `deadline` (wall-clock ms) or when `stopped()`. Checked at each commit seen and every `pollMs`.
 */
export function awaitLogged(
  db: Kysely<Database>,
  delivery: WebhookDeliveryRow,
  wait: { deadline: number; pollMs: number; stopped: () => boolean },
): Promise<WebhookDeliveryRow> {
  return new Promise<WebhookDeliveryRow>((resolve) => {
    let checking = false
    const check = async () => {
      if (checking) return
      checking = true
      const row = (await findDeliveryById(db, delivery.id).catch(() => undefined)) ?? delivery
      checking = false
      if (row.status !== 'pending' || Date.now() > wait.deadline || wait.stopped()) {
        stop()
        clearInterval(timer)
        resolve(row)
      }
    }
    const stop = onCommit(db, () => void check())
    const timer = setInterval(() => void check(), wait.pollMs).unref()
  })
}
