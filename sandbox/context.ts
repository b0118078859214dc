// What every service of a running sandbox shares: the database, the clocks, the random source
// and the sandbox's identity on the ledger.
import type { Kysely } from 'kysely'
import type { AdvanceableClock, Clock } from './clock.js'
import type { SandboxDb } from './db/database.js'
import type { Database, PaymentRow, PaymentUpdate } from './db/schema.js'
import type { Ledger } from './ledger/ledger-types.js'
import type { RateLimits } from './limits/rate-limiter.js'
import type { RandomSource } from './random.js'
import type { ReplayGuard } from './signatures/replay-guard.js'
import type { WebhookDeliveries } from './webhooks/webhook-deliveries.js'

/** The sandbox's admin token and its accounts on the ledger, made at genesis (bootstrap.ts). */
export interface SandboxIdentity {
  adminToken: string
  networkPassphrase: string
  usdcIssuer: string
  /** The escrow contract's id (C…). */
  escrowContract: string
  /** The G… account that holds the escrow contract's funds on the classic ledger. */
  escrowCustody: string
  platformFeeAccount: string
}

/** Runs after a payment was created (`before` undefined) or changed, inside that transaction. */
export type PaymentChangeEffect = (db: Kysely<Database>, before: PaymentRow | undefined, after: PaymentRow) => Promise<unknown>

/**
 * Writes every change of a payment, then what follows it (reactions.ts). Declared here, not in
 * payments/: every domain reads the context, payments/ included (PaymentChangeWriter implements it).
 */
export interface PaymentChanges {
  /** Adds an effect; effects run in the order they were added. */
  onChange(effect: PaymentChangeEffect): void
  /** A payment was just inserted: its effects (the creation event) follow. */
  created(db: Kysely<Database>, payment: PaymentRow): Promise<void>
  save(db: Kysely<Database>, payment: PaymentRow, changes: PaymentUpdate): Promise<PaymentRow>
}

export interface SandboxContext {
  db: SandboxDb
  /** Business time: expiry, history, createdAt. Moves with the simulation controls. */
  clock: AdvanceableClock
  /** Real time: only for authentication timestamps. */
  wallClock: Clock
  random: RandomSource
  /** Base of every link handed out (hostedUrl, shortUrl, page links). */
  publicUrl: string
  identity: SandboxIdentity
  /** The simulated Stellar network every movement of money goes through. */
  ledger: Ledger
  /** Writes payment changes, and runs what follows each (sandbox/reactions.ts). */
  payments: PaymentChanges
  /** Sends webhook deliveries in the background and tells listeners about them. */
  webhooks: WebhookDeliveries
  log: (line: string) => void
  /** Rate limits on requests (only under --shared); none: not limited. */
  rateLimits?: RateLimits
  /** Refuses a signature used before on a request other than GET (only under --shared); none: replays are accepted. */
  replayGuard?: ReplayGuard
}
