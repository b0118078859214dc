// What every service of a running sandbox shares: the database, the clocks, the random source
// and the sandbox's identity on the ledger.
import type { SandboxIdentity } from './bootstrap.js'
import type { AdvanceableClock, Clock } from './clock.js'
import type { SandboxDb } from './db/database.js'
import type { Ledger } from './ledger/ledger-types.js'
import type { RateLimits } from './limits/rate-limiter.js'
import type { PaymentChanges } from './payments/payment-changes.js'
import type { RandomSource } from './random.js'
import type { ReplayGuard } from './signatures/replay-guard.js'
import type { WebhookDeliveries } from './webhooks/webhook-deliveries.js'

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
