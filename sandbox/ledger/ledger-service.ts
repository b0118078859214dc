// The simulated Stellar network: applies signed transaction envelopes with Stellar's checks and
// result codes, moves USDC and XLM exactly (bigint stroops), and groups transactions into ledgers.
// Here: what applying and closing run in (the caller's transaction, one ledger, the listeners);
// each step is its own module: signed-payments, transaction-writer, ledger-reads, supply-invariants.
import type { Kysely } from 'kysely'
import type { Clock } from '../clock.js'
import type { LedgerAccountRole } from '../../src/api/enumerations.js'
import type { Database } from '../db/schema.js'
import { SANDBOX_NETWORK_PASSPHRASE } from './ledger-accounts.js'
import { LedgerError } from './ledger-errors.js'
import { toLedgerInfo } from './ledger-mappers.js'
import * as reads from './ledger-reads.js'
import { ensureOpenLedger, insertLedger, lastTransactionPosition, lockOpenLedger, updateLedger } from './ledger-repository.js'
import type {
  AccountBalances,
  AppliedListener,
  ClosedListener,
  Ledger,
  LedgerAccount,
  LedgerCloseMode,
  LedgerInfo,
  LedgerPayment,
  LedgerTransaction,
  PaymentListQuery,
  PaymentsInput,
  SupplyReport,
  TransactionListQuery,
  TransferInput,
} from './ledger-types.js'
import { signedPaymentEnvelope } from './signed-payments.js'
import { checkInvariants } from './supply-invariants.js'
import { evaluateEnvelope, writeTransaction, type Evaluation } from './transaction-writer.js'

export interface LedgerServiceOptions {
  /** The business clock: time bounds, applied and close times. */
  clock: Clock
  closeMode?: LedgerCloseMode
  networkPassphrase?: string
}

export class LedgerService implements Ledger {
  readonly closeMode: LedgerCloseMode
  readonly networkPassphrase: string
  readonly #clock: Clock
  readonly #listeners = new Set<AppliedListener>()
  readonly #closedListeners = new Set<ClosedListener>()
  /** How deeply inOneLedger is nested, per database transaction. */
  readonly #applying = new WeakMap<Kysely<Database>, number>()

  constructor(options: LedgerServiceOptions) {
    this.#clock = options.clock
    this.closeMode = options.closeMode ?? 'instant'
    this.networkPassphrase = options.networkPassphrase ?? SANDBOX_NETWORK_PASSPHRASE
  }

  onApplied(listener: AppliedListener): () => void {
    this.#listeners.add(listener)
    return () => this.#listeners.delete(listener)
  }

  onClosed(listener: ClosedListener): () => void {
    this.#closedListeners.add(listener)
    return () => this.#closedListeners.delete(listener)
  }

  /** Builds, signs with the sender's stored key and applies a one-payment transaction. */
  transfer(db: Kysely<Database>, input: TransferInput): Promise<LedgerTransaction> {
    const { memo, ...payment } = input
    return this.pay(db, { source: input.from, payments: [payment], memo })
  }

  /** Signed with the keys the sandbox holds and applied exactly as an envelope submitted from outside. */
  async pay(db: Kysely<Database>, input: PaymentsInput): Promise<LedgerTransaction> {
    requireTransaction(db)
    // The ledger lock before the senders' sequences are read: no other replica's payment takes one meanwhile.
    await lockOpenLedger(db)
    return this.applyEnvelope(db, await signedPaymentEnvelope(db, input, this.#network()))
  }

  /**
   * A transaction Stellar would include as failed throws too, with `included` set, for recordFailed to
   * record after the rollback. `db` must be a transaction: listeners and instant closing run in it.
   */
  async applyEnvelope(db: Kysely<Database>, envelopeXdr: string): Promise<LedgerTransaction> {
    requireTransaction(db)
    const evaluation = await evaluateEnvelope(db, envelopeXdr, this.#network())
    if (evaluation.failure) throw evaluation.failure
    return this.#write(db, evaluation)
  }

  /** As the network: a refusal throws; failing operations are included as failed (`successful: false`). */
  async submit(db: Kysely<Database>, envelopeXdr: string): Promise<LedgerTransaction> {
    requireTransaction(db)
    return this.#write(db, await evaluateEnvelope(db, envelopeXdr, this.#network()))
  }

  /** Checked again first: if the ledger has moved on so that it is now refused or would succeed, nothing is written. */
  async recordFailed(db: Kysely<Database>, envelopeXdr: string): Promise<LedgerTransaction | undefined> {
    requireTransaction(db)
    let evaluation: Evaluation
    try {
      evaluation = await evaluateEnvelope(db, envelopeXdr, this.#network())
    } catch (error) {
      if (error instanceof LedgerError) return undefined
      throw error
    }
    return evaluation.failure ? this.#write(db, evaluation) : undefined
  }

  async #write(db: Kysely<Database>, evaluation: Evaluation): Promise<LedgerTransaction> {
    const applied = await writeTransaction(db, evaluation, this.#clock.now())
    // Listeners may apply transactions of their own: they share this transaction's ledger. A
    // failed transaction moved nothing: no listener hears of it.
    return this.inOneLedger(db, async () => {
      if (applied.successful) for (const listener of this.#listeners) await callListener(listener, db, applied)
      return applied
    })
  }

  /** In instant mode the ledger closes once `work` returned, so close listeners see all it wrote; nested calls join the outermost. */
  async inOneLedger<T>(db: Kysely<Database>, work: () => Promise<T>): Promise<T> {
    requireTransaction(db)
    const depth = this.#applying.get(db) ?? 0
    this.#applying.set(db, depth + 1)
    let result: T
    try {
      result = await work()
    } finally {
      this.#applying.set(db, depth)
    }
    if (this.closeMode === 'instant' && depth === 0) await this.closeLedger(db)
    return result
  }

  async closeLedger(db: Kysely<Database>): Promise<LedgerInfo> {
    requireTransaction(db)
    const now = this.#clock.now()
    const open = await ensureOpenLedger(db, now)
    await updateLedger(db, open.sequence, { closed_at: now })
    // The next ledger starts from this one's totals, as a Stellar ledger header carries them on.
    await insertLedger(db, {
      sequence: open.sequence + 1,
      opened_at: now,
      closed_at: null,
      transaction_count: 0,
      total_coins: open.total_coins,
      fee_pool: open.fee_pool,
    })
    const closed = toLedgerInfo({ ...open, closed_at: now })
    for (const listener of this.#closedListeners) await listener(db, closed)
    return closed
  }

  currentLedger(db: Kysely<Database>): Promise<LedgerInfo | undefined> {
    return reads.currentLedger(db)
  }

  getLedger(db: Kysely<Database>, sequence: number): Promise<LedgerInfo | undefined> {
    return reads.getLedger(db, sequence)
  }

  getAccount(db: Kysely<Database>, publicKey: string): Promise<LedgerAccount | undefined> {
    return reads.getAccount(db, publicKey)
  }

  listAccounts(db: Kysely<Database>, filter: { role?: LedgerAccountRole } = {}): Promise<LedgerAccount[]> {
    return reads.listAccounts(db, filter)
  }

  async balances(db: Kysely<Database>, publicKey: string): Promise<AccountBalances | undefined> {
    return (await reads.getAccount(db, publicKey))?.balances
  }

  getTransaction(db: Kysely<Database>, hash: string): Promise<LedgerTransaction | undefined> {
    return reads.getTransaction(db, hash)
  }

  listTransactions(db: Kysely<Database>, query: TransactionListQuery = {}): Promise<LedgerTransaction[]> {
    return reads.listTransactions(db, query)
  }

  listTransactionsByMemo(db: Kysely<Database>, memo: string): Promise<LedgerTransaction[]> {
    return reads.listTransactionsByMemo(db, memo)
  }

  listPayments(db: Kysely<Database>, query: PaymentListQuery = {}): Promise<LedgerPayment[]> {
    return reads.listPayments(db, query)
  }

  /** The position of the last transaction applied, 0 before the first: where "from now on" starts. */
  lastPosition(db: Kysely<Database>): Promise<number> {
    return lastTransactionPosition(db)
  }

  ledgerCounts(db: Kysely<Database>, ledgerSequence: number): Promise<{ operations: number; failedTransactions: number }> {
    return reads.ledgerCounts(db, ledgerSequence)
  }

  checkInvariants(db: Kysely<Database>): Promise<SupplyReport> {
    return checkInvariants(db)
  }

  #network() {
    return { nowMs: this.#clock.now(), passphrase: this.networkPassphrase }
  }
}

function requireTransaction(db: Kysely<Database>): void {
  // Atomicity rests on the caller's transaction: without one a failed listener could not undo the payment.
  if (!db.isTransaction) throw new Error('The ledger applies and closes only inside a database transaction')
}

// A listener's failure rolls back the transaction it followed too: only the outer one's is recorded.
async function callListener(listener: AppliedListener, db: Kysely<Database>, applied: LedgerTransaction): Promise<void> {
  try {
    await listener(db, applied)
  } catch (error) {
    if (error instanceof LedgerError && error.included) throw new LedgerError(error.code, error.message, error.operationCodes)
    throw error
  }
}
