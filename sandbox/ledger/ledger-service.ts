// The simulated Stellar network: applies signed transaction envelopes with Stellar's checks and
// result codes, moves USDC and XLM exactly (bigint stroops), and groups transactions into ledgers.
import {
  Account,
  Asset,
  FeeBumpTransaction,
  Memo,
  Operation,
  StrKey,
  TransactionBuilder,
  xdr,
  type Transaction,
} from '@stellar/stellar-base'
import type { Kysely } from 'kysely'
import { MAX_TRANSACTIONS_PAGE } from '../../src/api/requests.js'
import { formatDecimal, USDC_SCALE } from '../../src/money.js'
import type { Clock } from '../clock.js'
import type { LedgerAccountRole } from '../../src/api/enumerations.js'
import type { Database, LedgerAccountRow, LedgerLedgerRow, LedgerOperationRow, LedgerTransactionRow } from '../db/schema.js'
import { readState } from '../state/sandbox-state.js'
import {
  BASE_FEE,
  baseAccountId,
  checkAndApply,
  INT64_MAX,
  involvedAccounts,
  operationFailure,
  toWorkingAccount,
  transactionHash,
  type CheckedTransaction,
  type WorkingAccount,
} from './envelope-rules.js'
import {
  entryAccount,
  groupBy,
  memoColumns,
  toLedgerAccount,
  toLedgerInfo,
  toLedgerPayment,
  toLedgerTransaction,
} from './ledger-mappers.js'
import { transactionMeta } from './transaction-meta.js'
import { signatureHint, signWithKey } from './ed25519.js'
import { SANDBOX_NETWORK_PASSPHRASE, USDC_ASSET_CODE } from './ledger-accounts.js'
import { LedgerError, LedgerInvariantError, type OperationResultCode } from './ledger-errors.js'
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
import {
  ensureOpenLedger,
  findAccount,
  findAccounts,
  findLedger,
  findOpenLedger,
  findOperationsOf,
  findTransactionRow,
  findTransactionRowsByMemo,
  insertLedger,
  insertTransaction,
  countFailedTransactionsInLedger,
  countOperationsInLedger,
  lastTransactionPosition,
  listAccountRows,
  listOperationRows,
  listTransactionRows,
  nextTransactionPosition,
  updateAccount,
  updateLedger,
} from './ledger-repository.js'

/** How long a transaction built by `transfer` stays valid, like the SDK's setTimeout. */
export const TRANSFER_TIMEOUT_SECONDS = 300

export interface LedgerServiceOptions {
  /** The business clock: time bounds, applied and close times. */
  clock: Clock
  closeMode?: LedgerCloseMode
  networkPassphrase?: string
}

interface Evaluation extends CheckedTransaction {
  tx: Transaction
  sourceId: string
  accounts: Map<string, WorkingAccount>
  openLedger: LedgerLedgerRow | undefined
  usdcIssuer: string | undefined
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
    const signers = new Map<string, LedgerAccountRow>()
    for (const publicKey of new Set([input.source, ...input.payments.map((payment) => payment.from)])) {
      const account = StrKey.isValidEd25519PublicKey(publicKey) ? await findAccount(db, publicKey) : undefined
      if (!account?.secret) throw new LedgerError('tx_no_account', `${publicKey} is not an account the sandbox holds the key of`)
      signers.set(publicKey, account)
    }
    let memo: Memo = Memo.none()
    if (input.memo !== undefined) {
      try {
        memo = Memo.text(input.memo)
      } catch {
        throw new LedgerError('tx_malformed', 'A text memo holds at most 28 bytes')
      }
    }
    const source = signers.get(input.source)!
    const nowSeconds = Math.floor(this.#clock.now() / 1000)
    const builder = new TransactionBuilder(new Account(source.public_key, source.sequence), {
      fee: (BASE_FEE * BigInt(input.payments.length)).toString(),
      networkPassphrase: this.networkPassphrase,
      memo,
      // From the business clock, not the SDK's setTimeout (which reads Date.now()).
      timebounds: { minTime: 0, maxTime: nowSeconds + TRANSFER_TIMEOUT_SECONDS },
    })
    const applied: OperationResultCode[] = []
    let usdc: Promise<Asset> | undefined
    for (const payment of input.payments) {
      if (!StrKey.isValidEd25519PublicKey(payment.to) && !StrKey.isValidMed25519PublicKey(payment.to)) {
        // Contracts (C…) cannot be paid by a classic payment: funds for the escrow contract go to its custody account.
        throw operationFailure(applied, 'op_malformed', `${payment.to} is not an account address (G… or M…)`)
      }
      if (payment.amount <= 0n || payment.amount > INT64_MAX) {
        throw operationFailure(applied, 'op_malformed', `The amount must be between 1 stroop and ${INT64_MAX} stroops`)
      }
      const asset = payment.asset === 'XLM' ? Asset.native() : await (usdc ??= this.#usdcAsset(db))
      const amount = formatDecimal(payment.amount, USDC_SCALE)
      builder.addOperation(
        Operation.payment({ destination: payment.to, asset, amount, ...(payment.from === input.source ? {} : { source: payment.from }) }),
      )
      applied.push('op_success')
    }
    const tx = builder.build()
    // What tx.sign(Keypair.fromSecret(secret)) adds, signed by node:crypto (ed25519.ts says why).
    const hash = transactionHash(tx)
    for (const { public_key, secret } of signers.values()) {
      const key = { seed: StrKey.decodeEd25519SecretSeed(secret!), publicKey: StrKey.decodeEd25519PublicKey(public_key) }
      tx.addDecoratedSignature(new xdr.DecoratedSignature({ hint: signatureHint(key.publicKey), signature: signWithKey(key, hash) }))
    }
    return this.applyEnvelope(db, tx.toEnvelope().toXDR('base64'))
  }

  /**
   * A transaction Stellar would include as failed throws too, with `included` set, for recordFailed to
   * record after the rollback. `db` must be a transaction: listeners and instant closing run in it.
   */
  async applyEnvelope(db: Kysely<Database>, envelopeXdr: string): Promise<LedgerTransaction> {
    requireTransaction(db)
    const evaluation = await this.#evaluate(db, envelopeXdr)
    if (evaluation.failure) throw evaluation.failure
    return this.#write(db, evaluation)
  }

  /** As the network: a refusal throws; failing operations are included as failed (`successful: false`). */
  async submit(db: Kysely<Database>, envelopeXdr: string): Promise<LedgerTransaction> {
    requireTransaction(db)
    return this.#write(db, await this.#evaluate(db, envelopeXdr))
  }

  /** Checked again first: if the ledger has moved on so that it is now refused or would succeed, nothing is written. */
  async recordFailed(db: Kysely<Database>, envelopeXdr: string): Promise<LedgerTransaction | undefined> {
    requireTransaction(db)
    let evaluation: Evaluation
    try {
      evaluation = await this.#evaluate(db, envelopeXdr)
    } catch (error) {
      if (error instanceof LedgerError) return undefined
      throw error
    }
    return evaluation.failure ? this.#write(db, evaluation) : undefined
  }

  /** Reads what the checks need and runs them (envelope-rules.ts) on working copies of the accounts; throws refusals. */
  async #evaluate(db: Kysely<Database>, envelopeXdr: string): Promise<Evaluation> {
    const tx = this.#decode(envelopeXdr)
    const now = this.#clock.now()
    // Read, not ensured: nothing is written until every check has passed.
    const openLedger = await findOpenLedger(db)
    const usdcIssuer = await readState(db, 'usdc_issuer')
    const sourceId = baseAccountId(tx.source)
    const rows = await findAccounts(db, [...new Set([sourceId, ...involvedAccounts(tx)])])
    const accounts = new Map(rows.map((row) => [row.public_key, toWorkingAccount(row)]))
    const checked = checkAndApply(tx, { now, ledgerSequence: openLedger?.sequence ?? 1, sourceId, accounts, usdcIssuer })
    return { ...checked, tx, sourceId, accounts, openLedger, usdcIssuer }
  }

  /** Writes an evaluated transaction: all of it, or for a failed one its fee and sequence only. */
  async #write(db: Kysely<Database>, evaluation: Evaluation): Promise<LedgerTransaction> {
    const { tx, hash, sourceId, accounts, fee, failure } = evaluation
    const now = this.#clock.now()
    const ledger = evaluation.openLedger ?? (await ensureOpenLedger(db, now))
    if (failure) {
      const source = accounts.get(sourceId)!
      await updateAccount(db, sourceId, {
        sequence: source.sequence.toString(),
        usdc_balance: source.row.usdc_balance,
        xlm_balance: evaluation.sourceXlmAfterFee.toString(),
      })
    } else {
      for (const account of accounts.values()) {
        const changes = {
          sequence: account.sequence.toString(),
          usdc_balance: account.usdc.toString(),
          xlm_balance: account.xlm.toString(),
        }
        const { row } = account
        if (changes.sequence !== row.sequence || changes.usdc_balance !== row.usdc_balance || changes.xlm_balance !== row.xlm_balance) {
          await updateAccount(db, row.public_key, changes)
        }
      }
    }
    await updateLedger(db, ledger.sequence, {
      transaction_count: ledger.transaction_count + 1,
      fee_pool: (BigInt(ledger.fee_pool) + fee).toString(),
    })
    const position = await nextTransactionPosition(db)
    const source = accounts.get(sourceId)!
    const { feeMetaXdr, resultMetaXdr } = transactionMeta({
      ledger: ledger.sequence,
      usdcIssuer: evaluation.usdcIssuer,
      source: entryAccount(source, { xlm: BigInt(source.row.xlm_balance), sequence: BigInt(source.row.sequence) }),
      fee,
      newSequence: source.sequence,
      accounts: new Map([...accounts].map(([id, account]) => [id, entryAccount(account)])),
      operations: failure ? [] : evaluation.changes,
    })
    const row: LedgerTransactionRow = {
      hash,
      position,
      ledger_sequence: ledger.sequence,
      source_account: sourceId,
      source_sequence: tx.sequence,
      fee_charged: Number(fee),
      ...memoColumns(tx.memo),
      envelope_xdr: tx.toEnvelope().toXDR('base64'),
      applied_at: now,
      successful: failure ? 0 : 1,
      operation_results: failure ? JSON.stringify(failure.operationCodes) : null,
      result_meta_xdr: resultMetaXdr,
      fee_meta_xdr: feeMetaXdr,
    }
    const operationRows: LedgerOperationRow[] = evaluation.operations.map((op) => ({
      tx_hash: hash,
      op_index: op.index,
      tx_position: position,
      type: op.type,
      from_account: op.from,
      to_account: op.to,
      asset_code: op.asset,
      amount: op.amount.toString(),
    }))
    await insertTransaction(db, row, operationRows)

    const applied = toLedgerTransaction(row, operationRows)
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

  async currentLedger(db: Kysely<Database>): Promise<LedgerInfo | undefined> {
    const open = await findOpenLedger(db)
    return open && toLedgerInfo(open)
  }

  async getLedger(db: Kysely<Database>, sequence: number): Promise<LedgerInfo | undefined> {
    const row = await findLedger(db, sequence)
    return row && toLedgerInfo(row)
  }

  async getAccount(db: Kysely<Database>, publicKey: string): Promise<LedgerAccount | undefined> {
    const row = await findAccount(db, publicKey)
    return row && toLedgerAccount(row)
  }

  async listAccounts(db: Kysely<Database>, filter: { role?: LedgerAccountRole } = {}): Promise<LedgerAccount[]> {
    return (await listAccountRows(db, filter)).map(toLedgerAccount)
  }

  async balances(db: Kysely<Database>, publicKey: string): Promise<AccountBalances | undefined> {
    return (await this.getAccount(db, publicKey))?.balances
  }

  async getTransaction(db: Kysely<Database>, hash: string): Promise<LedgerTransaction | undefined> {
    const row = await findTransactionRow(db, hash.toLowerCase())
    return row && toLedgerTransaction(row, await findOperationsOf(db, [row.hash]))
  }

  async listTransactions(db: Kysely<Database>, query: TransactionListQuery = {}): Promise<LedgerTransaction[]> {
    const limit = Math.min(Math.max(Math.trunc(query.limit ?? 10), 1), MAX_TRANSACTIONS_PAGE)
    const rows = await listTransactionRows(db, {
      account: query.account,
      ledger: query.ledger,
      after: query.after,
      order: query.order ?? 'asc',
      limit,
      includeFailed: query.includeFailed ?? false,
    })
    const operations = groupBy(
      await findOperationsOf(
        db,
        rows.map((row) => row.hash),
      ),
      (op) => op.tx_hash,
    )
    return rows.map((row) => toLedgerTransaction(row, operations.get(row.hash) ?? []))
  }

  /** Transactions with this text memo (a payment's), oldest first, at most MAX_TRANSACTIONS_PAGE. */
  async listTransactionsByMemo(db: Kysely<Database>, memo: string): Promise<LedgerTransaction[]> {
    const rows = await findTransactionRowsByMemo(db, memo, MAX_TRANSACTIONS_PAGE)
    const operations = groupBy(
      await findOperationsOf(
        db,
        rows.map((row) => row.hash),
      ),
      (op) => op.tx_hash,
    )
    return rows.map((row) => toLedgerTransaction(row, operations.get(row.hash) ?? []))
  }

  /** Payment operations in application order, each with its transaction's hash, ledger, time and source. */
  async listPayments(db: Kysely<Database>, query: PaymentListQuery = {}): Promise<LedgerPayment[]> {
    const limit = Math.min(Math.max(Math.trunc(query.limit ?? 10), 1), MAX_TRANSACTIONS_PAGE)
    const rows = await listOperationRows(db, { ...query, order: query.order ?? 'asc', limit, includeFailed: query.includeFailed ?? false })
    return rows.map(toLedgerPayment)
  }

  /** The position of the last transaction applied, 0 before the first: where "from now on" starts. */
  lastPosition(db: Kysely<Database>): Promise<number> {
    return lastTransactionPosition(db)
  }

  /** How many operations the successful transactions of a ledger hold, and how many of its transactions failed. */
  async ledgerCounts(db: Kysely<Database>, ledgerSequence: number): Promise<{ operations: number; failedTransactions: number }> {
    return {
      operations: await countOperationsInLedger(db, ledgerSequence),
      failedTransactions: await countFailedTransactionsInLedger(db, ledgerSequence),
    }
  }

  /**
   * Asserts no account below zero (but the issuer), USDC circulating = issued, and XLM in accounts plus
   * fees = endowed. Pass a transaction for a consistent picture: between separate reads, others may write.
   */
  async checkInvariants(db: Kysely<Database>): Promise<SupplyReport> {
    const issuer = await readState(db, 'usdc_issuer')
    const open = await findOpenLedger(db)
    const report: SupplyReport = {
      usdc: { issued: 0n, circulating: 0n },
      xlm: { totalCoins: BigInt(open?.total_coins ?? '0'), inAccounts: 0n, feePool: BigInt(open?.fee_pool ?? '0') },
    }
    const violations: string[] = []
    for (const row of await listAccountRows(db)) {
      const usdc = BigInt(row.usdc_balance)
      const xlm = BigInt(row.xlm_balance)
      if (row.public_key === issuer) {
        if (usdc > 0n) violations.push(`the USDC issuer holds ${usdc} stroops of its own asset`)
        report.usdc.issued = -usdc
      } else {
        if (usdc < 0n) violations.push(`${row.public_key} has a negative USDC balance (${usdc})`)
        report.usdc.circulating += usdc
      }
      if (xlm < 0n) violations.push(`${row.public_key} has a negative XLM balance (${xlm})`)
      report.xlm.inAccounts += xlm
    }
    if (report.usdc.circulating !== report.usdc.issued) {
      violations.push(`USDC in circulation (${report.usdc.circulating}) differs from USDC issued (${report.usdc.issued})`)
    }
    if (report.xlm.inAccounts + report.xlm.feePool !== report.xlm.totalCoins) {
      const { inAccounts, feePool, totalCoins } = report.xlm
      violations.push(`XLM in accounts (${inAccounts}) plus fees (${feePool}) differs from total coins (${totalCoins})`)
    }
    if (violations.length > 0) throw new LedgerInvariantError(violations)
    return report
  }

  async #usdcAsset(db: Kysely<Database>): Promise<Asset> {
    const issuer = await readState(db, 'usdc_issuer')
    if (issuer === undefined) throw operationFailure([], 'op_no_trust', 'The sandbox has no USDC issuer yet')
    return new Asset(USDC_ASSET_CODE, issuer)
  }

  #decode(envelopeXdr: string): Transaction {
    let decoded: Transaction | FeeBumpTransaction
    try {
      decoded = TransactionBuilder.fromXDR(envelopeXdr, this.networkPassphrase)
    } catch (error) {
      throw new LedgerError('tx_malformed', `The envelope is not a transaction envelope in base64 XDR: ${errorMessage(error)}`)
    }
    if (decoded instanceof FeeBumpTransaction) {
      throw new LedgerError('tx_not_supported', 'The sandbox ledger does not accept fee-bump transactions')
    }
    return decoded
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

const errorMessage = (error: unknown): string => (error instanceof Error ? error.message : String(error))
