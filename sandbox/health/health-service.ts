// Whether a running sandbox can do its job: the database answers, the ledger has an open
// ledger and its supply adds up, and the webhook dispatcher is getting through its queue.
// `paybox sandbox wait` and CI readiness checks rely on GET /health (health-routes.ts).
import type { HealthStatus } from '../../src/api/enumerations.js'
import { systemClock, type Clock } from '../clock.js'
import type { SandboxContext } from '../context.js'
import { inOneSnapshot, isLeader, isPostgres } from '../db/database.js'
import { findOpenLedger } from '../ledger/ledger-repository.js'
import { WEBHOOK_TIMEOUT_MS } from '../webhooks/webhook-sender.js'
import { countStateRows, findPendingDeliverySummary } from './health-repository.js'

export type CheckName = 'database' | 'ledger' | 'webhooks'

export interface CheckResult {
  status: HealthStatus
  /** What is wrong, when failing; a short fact when ok. */
  detail?: string
}

export interface HealthReport {
  status: HealthStatus
  checks: Record<CheckName, CheckResult>
  /** Whether this sandbox is shared (--shared) or replicated (PostgreSQL): not one developer's own. */
  sandbox: { shared: boolean; replicated: boolean }
}

export interface HealthServiceOptions {
  /** The dispatcher's time to answer per delivery (its timeoutMs). */
  webhookTimeoutMs?: number
  /** Real time, to see how long the dispatcher has made no progress. */
  wallClock?: Clock
  /** Started with --shared. */
  shared?: boolean
}

/** Slack on top of one delivery's timeout before a queue that does not move counts as stuck. */
export const STUCK_MARGIN_MS = 2_000

export class HealthService {
  readonly #ctx: SandboxContext
  readonly #wall: Clock
  readonly #stuckAfterMs: number
  readonly #shared: boolean
  /** Wall time of the last finished delivery (or of creation). */
  #lastProgressAt: number
  /** The oldest pending delivery seen by the last check, and since when it has been the oldest. */
  #watched: { id: string; since: number } | undefined

  constructor(ctx: SandboxContext, options: HealthServiceOptions = {}) {
    this.#ctx = ctx
    this.#wall = options.wallClock ?? systemClock
    this.#stuckAfterMs = (options.webhookTimeoutMs ?? WEBHOOK_TIMEOUT_MS) + STUCK_MARGIN_MS
    this.#shared = options.shared === true
    this.#lastProgressAt = this.#wall.now()
    ctx.webhooks.onProgress(() => {
      this.#lastProgressAt = this.#wall.now()
    })
  }

  async check(): Promise<HealthReport> {
    const checks: Record<CheckName, CheckResult> = {
      database: await settle(() => this.#checkDatabase()),
      ledger: await settle(() => this.#checkLedger()),
      webhooks: await settle(() => this.#checkWebhooks()),
    }
    const failing = Object.values(checks).some((check) => check.status !== 'ok')
    const sandbox = { shared: this.#shared, replicated: isPostgres(this.#ctx.db) }
    return { status: failing ? 'failing' : 'ok', checks, sandbox }
  }

  async #checkDatabase(): Promise<CheckResult> {
    const { db } = this.#ctx
    const rows = await countStateRows(db)
    if (rows === 0) return { status: 'failing', detail: 'the database holds no sandbox (no genesis)' }
    // On a shared database, which replica this is: the leader closes ledgers on the timer.
    if (isPostgres(db)) return { status: 'ok', detail: `PostgreSQL, ${isLeader(db) ? 'leading' : 'following the leading replica'}` }
    return { status: 'ok', detail: 'SQLite' }
  }

  async #checkLedger(): Promise<CheckResult> {
    // Both reads of one moment: a commit of any replica landing between them would unbalance the books.
    return inOneSnapshot(this.#ctx.db, async (db) => {
      const open = await findOpenLedger(db)
      if (!open) return { status: 'failing', detail: 'there is no open ledger' }
      await this.#ctx.ledger.checkInvariants(db)
      return { status: 'ok', detail: `ledger ${open.sequence} open` }
    })
  }

  /**
   * A dispatcher is stuck when the same delivery has been the oldest pending one for longer
   * than a delivery can take, and no delivery at all has finished meanwhile. One look cannot
   * tell that, so the first check that sees a delivery waiting only starts watching it.
   */
  async #checkWebhooks(): Promise<CheckResult> {
    const pending = await findPendingDeliverySummary(this.#ctx.db)
    const now = this.#wall.now()
    if (pending.oldestId === undefined) {
      this.#watched = undefined
      return { status: 'ok', detail: 'no deliveries waiting' }
    }
    if (this.#watched?.id !== pending.oldestId) this.#watched = { id: pending.oldestId, since: now }
    const stalledMs = now - Math.max(this.#watched.since, this.#lastProgressAt)
    if (stalledMs > this.#stuckAfterMs) {
      return {
        status: 'failing',
        detail: `the webhook dispatcher is stuck: ${deliveries(pending.count)} waiting, none finished for ${Math.round(stalledMs / 1000)} s`,
      }
    }
    return { status: 'ok', detail: `${deliveries(pending.count)} waiting` }
  }
}

const deliveries = (count: number): string => `${count} ${count === 1 ? 'delivery' : 'deliveries'}`

/** A check that throws is a failing check, named by its error. */
async function settle(check: () => Promise<CheckResult>): Promise<CheckResult> {
  try {
    return await check()
  } catch (error) {
    return { status: 'failing', detail: error instanceof Error ? error.message : String(error) }
  }
}
