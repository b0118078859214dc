// The services that run on one database, from boot count and genesis to the request handler; a
// restore or reset replaces a core whole.
import { createHash } from 'node:crypto'
import type http from 'node:http'
import { bootstrap, countBoot, isNewSandbox, type KeptMerchant } from '../bootstrap.js'
import { BusinessClock, type AdvanceableClock, type Clock } from '../clock.js'
import { SandboxConfigError } from '../config-error.js'
import type { SandboxContext, TenantPolicy } from '../context.js'
import { runTransaction, type SandboxDb } from '../db/database.js'
import { redactDatabaseLocation } from '../../src/database-location.js'
import { readState, writeState } from '../state/sandbox-state.js'
import { HealthService } from '../health/health-service.js'
import { createApp } from './app.js'
import { withFastRoutes } from './fast-routes.js'
import { LedgerCloser } from '../ledger/ledger-closer.js'
import { LedgerService } from '../ledger/ledger-service.js'
import type { RateLimits } from '../limits/rate-limiter.js'
import { findMerchantByApiKey, listMerchants } from '../merchants/merchant-repository.js'
import { toMerchantCredentials, type MerchantCredentials } from '../merchants/merchant-service.js'
import { PaymentChangeWriter } from '../payments/payment-changes.js'
import { startPaymentCountFolder } from '../payments/payment-count-folder.js'
import { paymentAnswers } from '../payments/payment-routes.js'
import { cryptoRandom, seededRandom, type RandomSource } from '../random.js'
import { wireReactions } from '../reactions.js'
import type { RequestLog } from '../request-log/request-log.js'
import { followStoredClock, loadBusinessClock, readFrozenAtMs, writeFrozenAt } from '../simulation/clock-service.js'
import { DUE_WORK_INTERVAL_MS, startDueWorkSweeper } from '../simulation/due-work-sweeper.js'
import { ReplayGuard } from '../signatures/replay-guard.js'
import type { SandboxStateControls } from '../snapshots/state-controls.js'
import { WebhookDispatcher } from '../webhooks/webhook-dispatcher.js'
import { keepEgressPolicy, settleEgressPolicy, StoredEgress, type EgressPolicy } from '../webhooks/egress-policy.js'

export const DEFAULT_LEDGER_CLOSE_MS = 5_000

export interface CoreOptions {
  db: string
  seed?: string
  defaultCredentials?: { apiKey: string; apiSecret: string }
  frozenAt?: number
  clock?: AdvanceableClock
  ledgerClose?: 'instant' | number
  dueWorkIntervalMs?: number
  requireHttps?: boolean
  webhookTimeoutMs?: number
  webhookPollMs?: number
}

/** What outlives a core: shared by every state the sandbox runs on. */
export interface CoreShared {
  /** Started with --shared (or on a non-loopback host): GET /health says so, for clients on other machines. */
  shared: boolean
  wallClock: Clock
  log: (line: string) => void
  /** This process's webhook egress policy, from its flags: stored for the sandbox, or checked against the stored one. */
  egressPolicy: EgressPolicy
  rateLimits: RateLimits | undefined
  requestLog: RequestLog
  /** Accept each signature once on requests other than GET (--shared, docs/security.md). */
  refuseReplays: boolean
  tenants: TenantPolicy
}

/** What a restore keeps of the state it replaces (the admin token), and a reset too (the genesis merchants' ids and keys). */
export interface KeptIdentity {
  adminToken: string
  merchants?: KeptMerchant[]
}

/** A database's identity and time, read or seeded as it opens. */
export interface OpenedState {
  clock: AdvanceableClock
  random: RandomSource
  identity: SandboxContext['identity']
  /** The database already held a sandbox (another replica's, or an earlier run's): this start joined it. */
  joined: boolean
}

/** The services running on one state (database): replaced whole by a restore or reset. */
export interface Core {
  context: SandboxContext
  webhookDispatcher: WebhookDispatcher
  merchants: MerchantCredentials[]
  app: http.RequestListener
  stop(): Promise<void>
}

export class CoreBuilder {
  readonly #options: CoreOptions
  readonly #shared: CoreShared
  readonly #egress: StoredEgress

  constructor(options: CoreOptions, shared: CoreShared) {
    this.#options = options
    this.#shared = shared
    this.#egress = new StoredEgress(shared.egressPolicy)
  }

  /** `keep`: what a restore or reset keeps of the state it replaces (a new genesis takes it up). */
  async open(db: SandboxDb, keep?: KeptIdentity): Promise<OpenedState> {
    const keepAdminToken = keep?.adminToken
    const options = this.#options
    const fresh = await isNewSandbox(db)
    if (fresh && options.frozenAt !== undefined && options.clock === undefined) await writeFrozenAt(db, options.frozenAt)
    const clock = options.clock ?? (await loadBusinessClock(db, this.#shared.wallClock))
    const boot = await countBoot(db)
    // Each boot (and each restore or reset) draws its own stream, so no value repeats.
    const random: RandomSource = options.seed === undefined ? cryptoRandom : seededRandom(options.seed, `boot:${boot}`)
    const { identity, created } = await bootstrap(db, random, clock.now(), {
      defaultCredentials: options.defaultCredentials,
      adminToken: keepAdminToken,
      merchants: keep?.merchants,
    })
    if (keepAdminToken === undefined) await checkSeed(db, options.seed, options.db)
    if (!fresh && keepAdminToken === undefined) await this.#checkExistingDatabase(db)
    if (keepAdminToken === undefined) {
      const note = await settleEgressPolicy(db, this.#shared.egressPolicy)
      if (note !== undefined) this.#shared.log(note)
    } else await keepEgressPolicy(db, this.#shared.egressPolicy)
    return { clock, random, identity, joined: !created }
  }

  async start(db: SandboxDb, state: OpenedState, publicUrl: string, controls: SandboxStateControls): Promise<Core> {
    const options = this.#options
    const { wallClock, log, rateLimits, requestLog, refuseReplays, tenants } = this.#shared
    const { clock, random, identity } = state
    const ledgerClose = options.ledgerClose ?? DEFAULT_LEDGER_CLOSE_MS
    const ledger = new LedgerService({
      clock,
      closeMode: ledgerClose === 'instant' ? 'instant' : 'timer',
      networkPassphrase: identity.networkPassphrase,
    })
    const webhooks = new WebhookDispatcher({
      db,
      clock,
      wallClock,
      requireHttps: options.requireHttps,
      egress: this.#egress,
      timeoutMs: options.webhookTimeoutMs,
      pollMs: options.webhookPollMs,
      log,
    })
    const context: SandboxContext = {
      db,
      clock,
      wallClock,
      random,
      publicUrl,
      identity,
      ledger,
      payments: new PaymentChangeWriter(),
      webhooks,
      log,
      rateLimits,
      tenants,
      replayGuard: refuseReplays ? new ReplayGuard(db, wallClock) : undefined,
    }
    wireReactions(context)
    const closer =
      ledgerClose === 'instant'
        ? undefined
        : new LedgerCloser(db, ledger, { intervalMs: ledgerClose, onError: (e) => log(`Ledger close failed: ${String(e)}`) })
    closer?.start()
    const health = new HealthService(context, { webhookTimeoutMs: options.webhookTimeoutMs, wallClock, shared: this.#shared.shared })
    // The busiest payment requests skip Express; both answer through the same PaymentAnswers.
    const payments = paymentAnswers(context)
    const app = withFastRoutes(context, payments, createApp(context, { health, state: controls, payments, requestLog }))
    // Tenants stay out of the banner and restore answers: a CI fleet's thousand keys are theirs to keep.
    const merchants = (await listMerchants(db)).filter((m) => m.tenant !== 1).map(toMerchantCredentials)
    const sweeper = startDueWorkSweeper(context, options.dueWorkIntervalMs ?? DUE_WORK_INTERVAL_MS)
    const countFolder = startPaymentCountFolder(db, log)
    // Replicas of a shared sandbox see business time moved by any of them.
    const stopFollowingClock = clock instanceof BusinessClock ? followStoredClock(db, clock) : () => {}
    await webhooks.start()
    return {
      context,
      webhookDispatcher: webhooks,
      merchants,
      app,
      stop: async () => {
        stopFollowingClock()
        await sweeper.stop()
        await countFolder.stop()
        await closer?.stop()
        await webhooks.stop()
        await db.destroy()
      },
    }
  }

  async #checkExistingDatabase(db: SandboxDb): Promise<void> {
    const options = this.#options
    const fixed = options.defaultCredentials
    if (fixed) {
      const merchant = await findMerchantByApiKey(db, fixed.apiKey)
      if (merchant?.api_secret !== fixed.apiSecret) {
        throw new SandboxConfigError(
          `${redactDatabaseLocation(options.db)} was created with other keys: --api-key/--api-secret only apply to a new database ` +
            '(start on a new --db, or run paybox sandbox reset once it runs)',
        )
      }
    }
    if (options.frozenAt !== undefined && options.clock === undefined && (await readFrozenAtMs(db)) !== options.frozenAt) {
      this.#shared.log(
        `Note: --frozen-at only applies to a new database; ${redactDatabaseLocation(options.db)} keeps its own business time (see paybox sandbox clock freeze)`,
      )
    }
  }
}

// A later start with another --seed is refused: its genesis would not be the one in the database.
async function checkSeed(db: SandboxDb, seed: string | undefined, location: string): Promise<void> {
  const given = seed === undefined ? 'none' : createHash('sha256').update(seed).digest('hex')
  const stored = await runTransaction(db, async (trx) => {
    const found = await readState(trx, 'seed_sha256')
    if (found === undefined) await writeState(trx, 'seed_sha256', given)
    return found
  })
  if (stored === undefined || seed === undefined || stored === given) return
  throw new SandboxConfigError(
    `--seed ${seed} differs from the seed ${redactDatabaseLocation(location)} was created with: start without --seed to join it, or use a new database`,
  )
}
