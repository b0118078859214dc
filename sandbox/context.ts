// What every service of a running sandbox shares: the database, the clocks, the random source
// and the sandbox's identity on the ledger.
import type { Kysely } from 'kysely'
import type { AdvanceableClock, Clock } from './clock.js'
import type { SandboxDb } from './db/database.js'
import type { ChangeEffect } from './db/change-effects.js'
import type { Database, PaymentEventRow, PaymentRow, PaymentUpdate, WebhookDeliveryRow } from './db/schema.js'
import type { Ledger } from './ledger/ledger-types.js'
import type { RateLimits } from './limits/rate-limiter.js'
import type { RandomSource } from './random.js'
import type { ReplayGuard } from './signatures/replay-guard.js'

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
export type PaymentChangeEffect = ChangeEffect<PaymentRow>

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

/**
 * What the rest of the sandbox sees of webhook delivery: who may be a receiver, resending one
 * delivery, and hearing of finished deliveries and new events. Declared here, not in webhooks/,
 * for the same reason as PaymentChanges (WebhookDispatcher implements it).
 */
export type DeliveryListener = (delivery: WebhookDeliveryRow) => void
export type EventListener = (event: PaymentEventRow) => void

export interface WebhookDeliveries {
  /** Why a payment may not have `url` as its webhookUrl (by the sandbox's stored egress policy, read on `db`), or undefined. */
  webhookUrlRefusal(db: Kysely<Database>, url: string): Promise<string | undefined>
  /** The stored payload, byte for byte, to the same URL as a new delivery, signed with the merchant's current secret. */
  resend(original: WebhookDeliveryRow): Promise<WebhookDeliveryRow>
  /** A fetch whose connections obey the same egress rule as deliveries (a shared sandbox's), for grading a receiver. */
  receiverFetch(): Promise<typeof fetch>
  /** Hears of every finished delivery; returns the way to stop listening. */
  onDelivery(listener: DeliveryListener): () => void
  /** Hears that a delivery finished, on any replica, without its row (never read for this); returns the way to stop. */
  onProgress(listener: () => void): () => void
  /** Hears of every new event, whatever its subject; returns the way to stop listening. */
  onEvent(listener: EventListener): () => void
}

export interface TenantPolicy {
  maxTenants: number
  merchantOwnClock: boolean
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
  /** Tenants: how many may be active, and whether a merchant's key may move its own clock (SandboxLimits). */
  tenants: TenantPolicy
  /** Refuses a signature used before on a request other than GET (only under --shared); none: replays are accepted. */
  replayGuard?: ReplayGuard
}
