// The rules a Stellar envelope must pass, as pure functions of the transaction and working copies of
// the accounts it touches: nothing here reads or writes.
import { createHash } from 'node:crypto'
import { MuxedAccount, StrKey, type Asset, type Transaction } from '@stellar/stellar-base'
import { formatDecimal, parseDecimal, USDC_SCALE } from '../../src/money.js'
import type { LedgerAccountRow, LedgerAssetCode } from '../db/schema.js'
import { signatureHint, verifySignature } from './ed25519.js'
import { USDC_ASSET_CODE } from './ledger-accounts.js'
import { LedgerError, type OperationResultCode } from './ledger-errors.js'
import type { LedgerOperation } from './ledger-types.js'
import type { BalanceChange } from './transaction-meta.js'

/** Stellar's base fee, in stroops per operation. */
export const BASE_FEE = 100n

/** An account as a transaction being checked sees it: changes stay here until all checks pass. */
export interface WorkingAccount {
  row: LedgerAccountRow
  sequence: bigint
  usdc: bigint
  xlm: bigint
  trustsUsdc: boolean
  usdcLimit: bigint
}

export const INT64_MAX = 2n ** 63n - 1n

/** The G… account behind an address; an M… (muxed) address names a G… account plus an id. */
export function baseAccountId(address: string): string {
  return StrKey.isValidMed25519PublicKey(address) ? MuxedAccount.fromAddress(address, '0').baseAccount().accountId() : address
}

/** The transaction's hash (its id, what its signatures sign), as tx.hash() gives it but by node:crypto, not sha.js in JS. */
export const transactionHash = (tx: Transaction): Buffer => createHash('sha256').update(tx.signatureBase()).digest()

export function involvedAccounts(tx: Transaction): string[] {
  return tx.operations.flatMap((op) => [
    ...(op.source ? [baseAccountId(op.source)] : []),
    ...(op.type === 'payment' ? [baseAccountId(op.destination)] : []),
  ])
}

/** Every account whose signature the transaction needs: its source, and each operation's own source. */
export function signersOf(tx: Transaction, sourceId: string): string[] {
  return [...new Set([sourceId, ...tx.operations.flatMap((op) => (op.source ? [baseAccountId(op.source)] : []))])]
}

/** Each account's signature is looked for once: the source's is asked for by two checks. */
export class SignatureCheck {
  readonly hash: Buffer
  readonly #tx: Transaction
  readonly #found = new Map<string, number>()

  constructor(tx: Transaction) {
    this.#tx = tx
    this.hash = transactionHash(tx)
  }

  /** The index of a signature by this account's key, or -1. */
  signatureOf(accountId: string): number {
    let index = this.#found.get(accountId)
    if (index === undefined) {
      const key = StrKey.decodeEd25519PublicKey(accountId)
      const hint = signatureHint(key)
      index = this.#tx.signatures.findIndex(
        (signature) => signature.hint().equals(hint) && verifySignature(key, this.hash, signature.signature()),
      )
      this.#found.set(accountId, index)
    }
    return index
  }

  signedBy(accountId: string): boolean {
    return this.signatureOf(accountId) >= 0
  }

  unusedSignatures(signers: string[]): number {
    const used = new Set(signers.map((signer) => this.signatureOf(signer)))
    return this.#tx.signatures.filter((_, index) => !used.has(index)).length
  }
}

/** In stellar-core's order. The fee charged is the base fee per operation, whatever the bid: the network is never congested. */
export function checkTransaction(
  tx: Transaction,
  state: { now: number; ledgerSequence: number; sourceId: string; accounts: Map<string, WorkingAccount>; signatures: SignatureCheck },
): bigint {
  const operationCount = BigInt(tx.operations.length)
  if (operationCount === 0n) throw new LedgerError('tx_missing_operation', 'The transaction has no operations')
  // The SDK writes a minimum sequence of 0 into every V2 precondition, used or not: 0 counts as
  // unset here, and the sequence number must always be the next one.
  const unsupported =
    BigInt(tx.minAccountSequence ?? 0) !== 0n ||
    BigInt(String(tx.minAccountSequenceAge ?? 0)) !== 0n ||
    (tx.minAccountSequenceLedgerGap ?? 0) !== 0 ||
    (tx.extraSigners?.length ?? 0) > 0
  if (unsupported) {
    throw new LedgerError('tx_not_supported', 'Of the preconditions, the sandbox ledger supports time and ledger bounds only')
  }
  const closeTime = BigInt(Math.floor(state.now / 1000))
  if (tx.timeBounds) {
    const minTime = BigInt(tx.timeBounds.minTime)
    const maxTime = BigInt(tx.timeBounds.maxTime)
    if (closeTime < minTime) {
      throw new LedgerError('tx_too_early', `The transaction is valid from ${minTime}; the ledger time is ${closeTime}`)
    }
    if (maxTime !== 0n && closeTime > maxTime) {
      throw new LedgerError('tx_too_late', `The transaction expired at ${maxTime}; the ledger time is ${closeTime}`)
    }
  }
  if (tx.ledgerBounds) {
    const { minLedger, maxLedger } = tx.ledgerBounds
    if (state.ledgerSequence < minLedger) throw new LedgerError('tx_too_early', `The transaction is valid from ledger ${minLedger}`)
    if (maxLedger !== 0 && state.ledgerSequence >= maxLedger) {
      throw new LedgerError('tx_too_late', `The transaction was valid before ledger ${maxLedger}`)
    }
  }
  const minimumFee = BASE_FEE * operationCount
  if (BigInt(tx.fee) < minimumFee) {
    throw new LedgerError('tx_insufficient_fee', `The fee must be at least ${BASE_FEE} stroops per operation (${minimumFee})`)
  }
  const source = state.accounts.get(state.sourceId)
  if (!source) throw new LedgerError('tx_no_account', `The source account ${state.sourceId} does not exist`)
  const expected = source.sequence + 1n
  if (BigInt(tx.sequence) !== expected) {
    throw new LedgerError('tx_bad_seq', `The sequence number must be ${expected} not ${tx.sequence}`)
  }
  if (!state.signatures.signedBy(state.sourceId)) {
    throw new LedgerError('tx_bad_auth', `The transaction is not signed by its source account ${state.sourceId} for this network`)
  }
  if (source.xlm < minimumFee) {
    throw new LedgerError('tx_insufficient_balance', `The source account has ${source.xlm} stroops of XLM, less than the ${minimumFee} fee`)
  }
  return minimumFee
}

export type OperationState = {
  sourceId: string
  accounts: Map<string, WorkingAccount>
  usdcIssuer: string | undefined
  signatures: SignatureCheck
}

/** What stellar-core checks before applying anything: a failure here refuses the whole transaction. */
export function validateOperations(tx: Transaction, state: OperationState): void {
  const results: OperationResultCode[] = []
  for (const [index, op] of tx.operations.entries()) {
    const fail = (code: OperationResultCode, message: string) => operationFailure(results, code, `Operation ${index}: ${message}`)
    if (op.type !== 'payment') throw fail('op_not_supported', `${op.type} is not supported; the sandbox ledger knows payments only`)
    const amount = op.amount.startsWith('-') ? undefined : parseDecimal(op.amount, USDC_SCALE)
    if (amount === undefined || amount <= 0n) throw fail('op_malformed', `the amount must be positive, not ${op.amount}`)
    const fromId = op.source ? baseAccountId(op.source) : state.sourceId
    if (!state.accounts.has(fromId)) throw fail('op_no_source_account', `the operation's source account ${fromId} does not exist`)
    if (fromId !== state.sourceId && !state.signatures.signedBy(fromId)) {
      throw fail('op_bad_auth', `not signed by the operation's source ${fromId}`)
    }
    results.push('op_success')
  }
}

/** As stellar-core: every operation gets a result, and one that fails changes nothing (the caller keeps only the fee). */
export function applyOperations(
  tx: Transaction,
  state: OperationState,
): { operations: LedgerOperation[]; results: OperationResultCode[]; changes: BalanceChange[][] } {
  const results: OperationResultCode[] = []
  const operations: LedgerOperation[] = []
  const changes: BalanceChange[][] = []
  for (const [index, op] of tx.operations.entries()) {
    if (op.type !== 'payment') throw new Error('validateOperations lets payments only through')
    const amount = parseDecimal(op.amount, USDC_SCALE)!
    const fromId = op.source ? baseAccountId(op.source) : state.sourceId
    const from = state.accounts.get(fromId)!
    const toId = baseAccountId(op.destination)
    const to = state.accounts.get(toId)
    const asset = assetCodeOf(op.asset, state.usdcIssuer)
    if (asset) operations.push({ index, type: 'payment', from: fromId, to: toId, asset, amount })
    const code = paymentResult(from, fromId, to, toId, asset, amount, state.usdcIssuer)
    results.push(code)
    if (code !== 'op_success' || !to || !asset) {
      changes.push([])
      continue
    }
    const balance = asset === 'XLM' ? 'xlm' : 'usdc'
    const parties = [
      ...new Map([
        [fromId, from],
        [toId, to],
      ]).entries(),
    ]
    const before = parties.map(([, account]) => account[balance])
    // The issuer mints by paying and burns by being paid: its USDC balance is minus what circulates.
    from[balance] -= amount
    to[balance] += amount
    changes.push(parties.map(([id, account], i) => ({ account: id, asset, before: before[i]!, after: account[balance] })))
  }
  return { operations, results, changes }
}

/** A payment's result, in stellar-core's order: the destination's side first, then the source's. */
function paymentResult(
  from: WorkingAccount,
  fromId: string,
  to: WorkingAccount | undefined,
  toId: string,
  asset: LedgerAssetCode | undefined,
  amount: bigint,
  usdcIssuer: string | undefined,
): OperationResultCode {
  if (!to) return 'op_no_destination'
  // No account trusts an asset other than the sandbox USDC.
  if (!asset) return 'op_no_trust'
  if (asset === 'XLM') {
    if (to.xlm + amount > INT64_MAX) return 'op_line_full'
    return from.xlm < amount ? 'op_underfunded' : 'op_success'
  }
  if (toId !== usdcIssuer) {
    if (!to.trustsUsdc) return 'op_no_trust'
    if (to.usdc + amount > to.usdcLimit) return 'op_line_full'
  }
  if (fromId !== usdcIssuer) {
    if (!from.trustsUsdc) return 'op_src_no_trust'
    if (from.usdc < amount) return 'op_underfunded'
  }
  return 'op_success'
}

export function failureText(code: OperationResultCode, op: LedgerOperation | undefined): string {
  switch (code) {
    case 'op_underfunded':
      return `${op?.from ?? 'the source'} holds less ${op?.asset ?? ''} than ${op ? formatDecimal(op.amount, USDC_SCALE) : 'the amount'} (op_underfunded)`
    case 'op_no_destination':
      return 'the destination account does not exist (op_no_destination)'
    case 'op_no_trust':
      return `the destination has no trustline for the asset (op_no_trust); the sandbox knows XLM and its own USDC`
    case 'op_src_no_trust':
      return `${op?.from ?? 'the source'} has no USDC trustline (op_src_no_trust)`
    case 'op_line_full':
      return `the destination ${op?.to ?? ''} would hold more than its trustline's limit (op_line_full)`
    default:
      return code
  }
}

export function operationFailure(earlier: OperationResultCode[], code: OperationResultCode, message: string): LedgerError {
  return new LedgerError('tx_failed', message, [...earlier, code])
}

export function assetCodeOf(asset: Asset, usdcIssuer: string | undefined): LedgerAssetCode | undefined {
  if (asset.isNative()) return 'XLM'
  if (usdcIssuer !== undefined && asset.getCode() === USDC_ASSET_CODE && asset.getIssuer() === usdcIssuer) return 'USDC'
  return undefined
}

export function toWorkingAccount(row: LedgerAccountRow): WorkingAccount {
  return {
    row,
    sequence: BigInt(row.sequence),
    usdc: BigInt(row.usdc_balance),
    xlm: BigInt(row.xlm_balance),
    trustsUsdc: row.usdc_trustline === 1,
    usdcLimit: BigInt(row.usdc_limit),
  }
}

/** A transaction checked against working copies of its accounts (changed in place), not yet written. */
export interface CheckedTransaction {
  hash: string
  fee: bigint
  /** The source's XLM once the fee is taken: all a failed transaction changes, with the sequence. */
  sourceXlmAfterFee: bigint
  operations: LedgerOperation[]
  /** Per operation, the balances it changed (for the transaction's meta). */
  changes: BalanceChange[][]
  /** Set when an operation failed as it was applied: the transaction is included as failed. */
  failure: LedgerError | undefined
}

/** Throws a LedgerError for a refusal; `accounts` must hold the source and every existing account the operations involve. */
export function checkAndApply(
  tx: Transaction,
  state: { now: number; ledgerSequence: number; sourceId: string; accounts: Map<string, WorkingAccount>; usdcIssuer: string | undefined },
): CheckedTransaction {
  const { sourceId, accounts, usdcIssuer } = state
  const signatures = new SignatureCheck(tx)
  const fee = checkTransaction(tx, { now: state.now, ledgerSequence: state.ledgerSequence, sourceId, accounts, signatures })
  const operationState = { sourceId, accounts, usdcIssuer, signatures }
  validateOperations(tx, operationState)
  if (signatures.unusedSignatures(signersOf(tx, sourceId)) > 0) {
    throw new LedgerError('tx_bad_auth_extra', 'The transaction carries signatures that are not needed')
  }
  const source = accounts.get(sourceId)!
  // Stellar takes the fee and consumes the sequence number before it applies the operations.
  source.xlm -= fee
  source.sequence = BigInt(tx.sequence)
  const sourceXlmAfterFee = source.xlm
  const hash = signatures.hash.toString('hex')
  const { operations, results, changes } = applyOperations(tx, operationState)
  const failed = results.find((code) => code !== 'op_success')
  const failure =
    failed === undefined
      ? undefined
      : new LedgerError(
          'tx_failed',
          results
            .flatMap((code, index) =>
              code === 'op_success'
                ? []
                : [
                    `Operation ${index}: ${failureText(
                      code,
                      operations.find((op) => op.index === index),
                    )}`,
                  ],
            )
            .join('; '),
          results,
          {
            envelopeXdr: tx.toEnvelope().toXDR('base64'),
            hash,
          },
        )
  return { hash, fee, sourceXlmAfterFee, operations, changes, failure }
}
