// Closes ledgers on a timer, for a ledger in 'timer' mode: transactions applied between
// two ticks share one ledger, as on Stellar, where a ledger closes every few seconds.
import { isLeader, runTransaction, type SandboxDb } from '../db/database.js'
import type { Ledger, LedgerInfo } from './ledger-types.js'

export interface LedgerCloserOptions {
  intervalMs: number
  /** Called with each ledger closed by the timer. */
  onClosed?: (ledger: LedgerInfo) => void
  /** A close that failed; the timer keeps running. */
  onError?: (error: unknown) => void
}

export class LedgerCloser {
  readonly #db: SandboxDb
  readonly #ledger: Ledger
  readonly #options: LedgerCloserOptions
  #timer: NodeJS.Timeout | undefined
  #closing: Promise<void> | undefined

  constructor(db: SandboxDb, ledger: Ledger, options: LedgerCloserOptions) {
    if (!Number.isInteger(options.intervalMs) || options.intervalMs <= 0) throw new RangeError('intervalMs must be a positive integer')
    this.#db = db
    this.#ledger = ledger
    this.#options = options
  }

  start(): void {
    if (this.#timer) return
    // unref: a running closer alone does not keep the process alive.
    this.#timer = setInterval(() => this.#tick(), this.#options.intervalMs).unref()
  }

  /** Stops the timer and waits for a close in progress, so the database can be closed after. */
  async stop(): Promise<void> {
    clearInterval(this.#timer)
    this.#timer = undefined
    await this.#closing
  }

  closeNow(): Promise<LedgerInfo> {
    return runTransaction(this.#db, (trx) => this.#ledger.closeLedger(trx))
  }

  #tick(): void {
    // A close still waiting for the database lock is not doubled up by the next tick; replicas
    // that do not lead leave closes to the one that does (once per interval for the sandbox).
    if (this.#closing || !isLeader(this.#db)) return
    this.#closing = this.closeNow()
      .then((ledger) => this.#options.onClosed?.(ledger))
      .catch((error: unknown) => this.#options.onError?.(error))
      .finally(() => {
        this.#closing = undefined
      })
  }
}
