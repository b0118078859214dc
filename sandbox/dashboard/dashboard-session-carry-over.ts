// A restore or reset replaces every table, dashboard sessions included: the snapshot's sessions
// come back and any opened since are gone. The admin who restored stays signed in: its session
// row (same id digest, CSRF token and expiry) is written again into the new state.
import { runTransaction, type SandboxDb } from '../db/database.js'
import { findMerchantById } from '../merchants/merchant-repository.js'
import { deleteSession, insertSession } from './dashboard-session-repository.js'
import { SESSION_TTL_MS, type DashboardSession } from './dashboard-sessions.js'

export async function keepSignedIn(db: SandboxDb, session: DashboardSession): Promise<void> {
  await runTransaction(db, async (trx) => {
    // The merchant looked at may not exist in the new state; the admin then picks one again.
    const merchant = session.merchant && (await findMerchantById(trx, session.merchant.id))
    // The snapshot may hold this very session (saved while it was signed in): the newer row wins.
    await deleteSession(trx, session.idHash)
    await insertSession(trx, {
      id_hash: session.idHash,
      is_admin: session.isAdmin ? 1 : 0,
      merchant_id: merchant?.id ?? null,
      csrf_token: session.csrfToken,
      created_at: session.expiresAt - SESSION_TTL_MS,
      expires_at: session.expiresAt,
    })
  })
}
