// Who is signed in to the dashboard: one-time sign-in tokens (minted with the admin token,
// redeemed once by any replica), sessions stored by the SHA-256 of their id, and the CSRF
// synchronizer token of each session. Secrets come from node:crypto, never from the seeded
// RandomSource: a --seed must not make sessions guessable. Times are wall-clock (ctx.wallClock).
import { createHash, randomBytes, timingSafeEqual } from 'node:crypto'
import type { Clock } from '../clock.js'
import { runTransaction, type SandboxDb } from '../db/database.js'
import type { DashboardSessionRow, MerchantRow } from '../db/schema.js'
import { findMerchantByApiKey, findMerchantById, listMerchants } from '../merchants/merchant-repository.js'
import { secretsMatch } from '../../src/signing.js'
import {
  deleteExpiredSessions,
  deleteExpiredSignInTokens,
  deleteSession,
  findSession,
  insertSession,
  insertSignInToken,
  takeSignInToken,
  updateSessionMerchant,
} from './dashboard-session-repository.js'

/** How long a sign-in link works: long enough to open it, short enough not to linger in a terminal's scrollback. */
export const SIGN_IN_TOKEN_TTL_MS = 5 * 60_000
/** How long a session lasts from sign-in; then the dashboard asks again. */
export const SESSION_TTL_MS = 12 * 60 * 60_000

/** A signed-in session as the pages see it. */
export interface DashboardSession {
  idHash: string
  isAdmin: boolean
  /** The merchant being looked at; undefined for an admin who has not picked one (or whose merchant is gone). */
  merchant: MerchantRow | undefined
  csrfToken: string
  expiresAt: number
}

const secret = (): string => randomBytes(32).toString('base64url')
export const digestOf = (value: string): string => createHash('sha256').update(value).digest('hex')

/** Constant-time comparison of the form's CSRF token with the session's. */
export function csrfTokenMatches(session: Pick<DashboardSession, 'csrfToken'>, given: unknown): boolean {
  if (typeof given !== 'string') return false
  const expected = Buffer.from(session.csrfToken)
  const received = Buffer.from(given)
  return expected.length === received.length && timingSafeEqual(expected, received)
}

export class DashboardSessions {
  constructor(
    private readonly db: SandboxDb,
    private readonly wallClock: Clock,
  ) {}

  /** A new one-time sign-in token (the raw value, for the link) for an admin session. */
  async mintAdminSignInToken(): Promise<{ token: string; expiresAt: number }> {
    const now = this.wallClock.now()
    const token = secret()
    const expiresAt = now + SIGN_IN_TOKEN_TTL_MS
    await runTransaction(this.db, async (trx) => {
      await deleteExpiredSignInTokens(trx, now)
      await insertSignInToken(trx, { token_hash: digestOf(token), merchant_id: null, created_at: now, expires_at: expiresAt })
    })
    return { token, expiresAt }
  }

  /** Redeems a sign-in token once; a new session's raw id, or undefined when the token is unknown, used or expired. */
  async redeem(token: unknown): Promise<{ sessionId: string; session: DashboardSession } | undefined> {
    if (typeof token !== 'string' || token.length === 0 || token.length > 256) return undefined
    const now = this.wallClock.now()
    return runTransaction(this.db, async (trx) => {
      const taken = await takeSignInToken(trx, digestOf(token))
      if (!taken || taken.expires_at <= now) return undefined
      // An admin starts out looking at the first merchant (the default one); the selector switches.
      const merchant = taken.merchant_id === null ? (await listMerchants(trx))[0] : await findMerchantById(trx, taken.merchant_id)
      return this.#open(trx, { isAdmin: taken.merchant_id === null, merchant }, now)
    })
  }

  /** A merchant session from its API key and secret; undefined when they do not match. */
  async signInAsMerchant(apiKey: unknown, apiSecret: unknown): Promise<{ sessionId: string; session: DashboardSession } | undefined> {
    if (typeof apiKey !== 'string' || apiKey.length === 0 || apiKey.length > 256) return undefined
    const now = this.wallClock.now()
    return runTransaction(this.db, async (trx) => {
      const merchant = await findMerchantByApiKey(trx, apiKey)
      // A digest comparison in either case, so an unknown key takes as long as a wrong secret.
      const matches = secretsMatch(merchant?.api_secret ?? secret(), apiSecret)
      if (!merchant || !matches) return undefined
      return this.#open(trx, { isAdmin: false, merchant }, now)
    })
  }

  async #open(
    trx: SandboxDb,
    who: { isAdmin: boolean; merchant: MerchantRow | undefined },
    now: number,
  ): Promise<{ sessionId: string; session: DashboardSession }> {
    await deleteExpiredSessions(trx, now)
    const sessionId = secret()
    const row: DashboardSessionRow = {
      id_hash: digestOf(sessionId),
      is_admin: who.isAdmin ? 1 : 0,
      merchant_id: who.merchant?.id ?? null,
      csrf_token: secret(),
      created_at: now,
      expires_at: now + SESSION_TTL_MS,
    }
    await insertSession(trx, row)
    return {
      sessionId,
      session: { idHash: row.id_hash, isAdmin: who.isAdmin, merchant: who.merchant, csrfToken: row.csrf_token, expiresAt: row.expires_at },
    }
  }

  /** The live session whose raw id a cookie holds, with its merchant; undefined when unknown or expired. */
  async find(sessionId: unknown): Promise<DashboardSession | undefined> {
    if (typeof sessionId !== 'string' || sessionId.length === 0 || sessionId.length > 256) return undefined
    const row = await findSession(this.db, digestOf(sessionId), this.wallClock.now())
    if (!row) return undefined
    const merchant = row.merchant_id === null ? undefined : await findMerchantById(this.db, row.merchant_id)
    return { idHash: row.id_hash, isAdmin: row.is_admin === 1, merchant, csrfToken: row.csrf_token, expiresAt: row.expires_at }
  }

  /** An admin session looks at another merchant from now on; false when there is no such merchant. */
  async switchMerchant(session: DashboardSession, merchantId: string): Promise<boolean> {
    if (!session.isAdmin) return false
    const merchant = await findMerchantById(this.db, merchantId)
    if (!merchant) return false
    await updateSessionMerchant(this.db, session.idHash, merchant.id)
    return true
  }

  async signOut(session: DashboardSession): Promise<void> {
    await deleteSession(this.db, session.idHash)
  }
}
