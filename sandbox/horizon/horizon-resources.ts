// The sandbox ledger as Horizon's JSON records, with the fields and links @stellar/stellar-sdk reads,
// written as Horizon writes them (7-decimal amounts, ISO times to the second, int64 as strings).
import { createHash } from 'node:crypto'
import { FeeBumpTransaction, TransactionBuilder, type Transaction } from '@stellar/stellar-base'
import { USDC_SCALE, formatDecimal } from '../../src/money.js'
import type { LedgerAssetCode } from '../db/schema.js'
import { USDC_ASSET_CODE } from '../ledger/ledger-accounts.js'
import { BASE_FEE } from '../ledger/envelope-rules.js'
import type { LedgerAccount, LedgerInfo, LedgerPayment, LedgerTransaction } from '../ledger/ledger-types.js'
import { operationId, transactionToken } from './horizon-paging.js'
import { appliedResultXdr } from './horizon-results.js'

/** Fixed figures of the simulated network, where Horizon would report stellar-core's. */
export const PROTOCOL_VERSION = 22
export const BASE_RESERVE_STROOPS = 5_000_000
export const MAX_TX_SET_SIZE = 1000

export interface HorizonContext {
  /** Absolute base of the Horizon API: links are built on it. */
  baseUrl: string
  networkPassphrase: string
  usdcIssuer: string
}

const amount = (stroops: bigint): string => formatDecimal(stroops, USDC_SCALE)

/** Horizon's time format: ISO 8601 in UTC, to the second. */
export const horizonTime = (ms: number): string => new Date(Math.floor(ms / 1000) * 1000).toISOString().replace('.000Z', 'Z')

const href = (url: string) => ({ href: url })
const templated = (url: string) => ({ href: url, templated: true })
const PAGING = '{?cursor,limit,order}'
/** The lists an account or a ledger links to, as Horizon names them. */
const listLinks = (self: string) => ({
  transactions: templated(`${self}/transactions${PAGING}`),
  operations: templated(`${self}/operations${PAGING}`),
  payments: templated(`${self}/payments${PAGING}`),
  effects: templated(`${self}/effects${PAGING}`),
})

/** Where an account's history begins: an untouched account's sequence is its creation ledger << 32. */
export const creationLedger = (account: LedgerAccount): number => Number(account.sequence >> 32n)

export interface AccountActivity {
  /** The ledger of the account's last transaction (or of its creation) and when that was. */
  ledger: number
  at: number
}

export function toAccountRecord(h: HorizonContext, account: LedgerAccount, activity: AccountActivity) {
  const id = account.publicKey
  const self = `${h.baseUrl}/accounts/${id}`
  const native = {
    balance: amount(account.balances.xlm),
    buying_liabilities: amount(0n),
    selling_liabilities: amount(0n),
    asset_type: 'native',
  }
  // The issuer holds none of its own asset; a wallet made without a trustline has none either.
  const trustline = id === h.usdcIssuer ? null : account.usdcTrustline
  const usdc = trustline && {
    balance: amount(account.balances.usdc),
    limit: amount(trustline.limit),
    buying_liabilities: amount(0n),
    selling_liabilities: amount(0n),
    last_modified_ledger: activity.ledger,
    is_authorized: true,
    is_authorized_to_maintain_liabilities: true,
    is_clawback_enabled: false,
    asset_type: 'credit_alphanum4',
    asset_code: USDC_ASSET_CODE,
    asset_issuer: h.usdcIssuer,
  }
  return {
    _links: {
      self: href(self),
      ...listLinks(self),
      // The SDK's memo-required check (SEP-29) reads data through this link's record field.
      data: templated(`${self}/data/{key}`),
    },
    id,
    account_id: id,
    sequence: account.sequence.toString(),
    subentry_count: trustline ? 1 : 0,
    last_modified_ledger: activity.ledger,
    last_modified_time: horizonTime(activity.at),
    thresholds: { low_threshold: 0, med_threshold: 0, high_threshold: 0 },
    flags: { auth_required: false, auth_revocable: false, auth_immutable: false, auth_clawback_enabled: false },
    balances: usdc ? [usdc, native] : [native],
    signers: [{ weight: 1, key: id, type: 'ed25519_public_key' }],
    data: {},
    num_sponsoring: 0,
    num_sponsored: 0,
    paging_token: id,
  }
}

function decodeEnvelope(h: HorizonContext, envelopeXdr: string): Transaction {
  const decoded = TransactionBuilder.fromXDR(envelopeXdr, h.networkPassphrase)
  // The ledger accepts no fee bumps, so a stored envelope is always a plain transaction.
  return decoded instanceof FeeBumpTransaction ? decoded.innerTransaction : decoded
}

/** Seconds since the epoch as Horizon's time, or undefined when 0 (unbounded) or out of range. */
function boundTime(seconds: string): string | undefined {
  const value = BigInt(seconds)
  return value === 0n || value > 8_640_000_000_000n ? undefined : horizonTime(Number(value) * 1000)
}

export function toTransactionRecord(h: HorizonContext, tx: LedgerTransaction) {
  const self = `${h.baseUrl}/transactions/${tx.hash}`
  const envelope = decodeEnvelope(h, tx.envelopeXdr)
  const token = transactionToken(tx.position)
  const memo = tx.memoType === 'none' ? {} : { memo: tx.memo ?? '' }
  const memoBytes =
    tx.memoType === 'text' && Buffer.isBuffer(envelope.memo.value) ? { memo_bytes: envelope.memo.value.toString('base64') } : {}
  const bounds = envelope.timeBounds
  const validAfter = bounds ? boundTime(bounds.minTime) : undefined
  const validBefore = bounds ? boundTime(bounds.maxTime) : undefined
  return {
    _links: {
      self: href(self),
      account: href(`${h.baseUrl}/accounts/${tx.sourceAccount}`),
      ledger: href(`${h.baseUrl}/ledgers/${tx.ledgerSequence}`),
      operations: templated(`${self}/operations${PAGING}`),
      payments: templated(`${self}/payments${PAGING}`),
      effects: templated(`${self}/effects${PAGING}`),
      precedes: href(`${h.baseUrl}/transactions?order=asc&cursor=${token}`),
      succeeds: href(`${h.baseUrl}/transactions?order=desc&cursor=${token}`),
      transaction: href(self),
    },
    id: tx.hash,
    paging_token: token,
    successful: tx.successful,
    hash: tx.hash,
    ledger: tx.ledgerSequence,
    created_at: horizonTime(tx.appliedAt),
    source_account: tx.sourceAccount,
    source_account_sequence: tx.sourceSequence.toString(),
    fee_account: tx.sourceAccount,
    fee_charged: tx.feeCharged.toString(),
    max_fee: envelope.fee,
    operation_count: envelope.operations.length,
    envelope_xdr: tx.envelopeXdr,
    result_xdr: appliedResultXdr(tx.feeCharged, envelope.operations.length, tx.operationResults),
    ...(tx.resultMetaXdr === null ? {} : { result_meta_xdr: tx.resultMetaXdr }),
    ...(tx.feeMetaXdr === null ? {} : { fee_meta_xdr: tx.feeMetaXdr }),
    memo_type: tx.memoType,
    ...memo,
    ...memoBytes,
    signatures: envelope.signatures.map((signature) => signature.signature().toString('base64')),
    ...(validAfter === undefined ? {} : { valid_after: validAfter }),
    ...(validBefore === undefined ? {} : { valid_before: validBefore }),
    preconditions: bounds
      ? { timebounds: { min_time: bounds.minTime, ...(bounds.maxTime === '0' ? {} : { max_time: bounds.maxTime }) } }
      : {},
  }
}

export function assetFields(h: HorizonContext, asset: LedgerAssetCode) {
  return asset === 'XLM'
    ? { asset_type: 'native' }
    : { asset_type: 'credit_alphanum4', asset_code: USDC_ASSET_CODE, asset_issuer: h.usdcIssuer }
}

/** A payment operation as Horizon lists it under /payments and /operations. */
export function toPaymentRecord(h: HorizonContext, payment: LedgerPayment) {
  const id = operationId(payment.txPosition, payment.index)
  return {
    _links: {
      self: href(`${h.baseUrl}/operations/${id}`),
      transaction: href(`${h.baseUrl}/transactions/${payment.txHash}`),
      effects: href(`${h.baseUrl}/operations/${id}/effects`),
      precedes: href(`${h.baseUrl}/payments?order=asc&cursor=${id}`),
      succeeds: href(`${h.baseUrl}/payments?order=desc&cursor=${id}`),
    },
    id,
    paging_token: id,
    transaction_successful: payment.transactionSuccessful,
    source_account: payment.from,
    type: 'payment',
    type_i: 1,
    created_at: horizonTime(payment.appliedAt),
    transaction_hash: payment.txHash,
    ...assetFields(h, payment.asset),
    from: payment.from,
    to: payment.to,
    amount: amount(payment.amount),
  }
}

// No ledger headers are kept: a ledger's hash is SHA-256 of the network passphrase and its sequence.
export const ledgerHash = (networkPassphrase: string, sequence: number): string =>
  createHash('sha256').update(`${networkPassphrase}\nledger ${sequence}`).digest('hex')

export function toLedgerRecord(
  h: HorizonContext,
  ledger: LedgerInfo & { closedAt: number },
  counts: { operations: number; failedTransactions: number },
) {
  const self = `${h.baseUrl}/ledgers/${ledger.sequence}`
  return {
    _links: {
      self: href(self),
      ...listLinks(self),
    },
    id: ledgerHash(h.networkPassphrase, ledger.sequence),
    paging_token: (BigInt(ledger.sequence) << 32n).toString(),
    hash: ledgerHash(h.networkPassphrase, ledger.sequence),
    ...(ledger.sequence > 1 ? { prev_hash: ledgerHash(h.networkPassphrase, ledger.sequence - 1) } : {}),
    sequence: ledger.sequence,
    successful_transaction_count: ledger.transactionCount - counts.failedTransactions,
    failed_transaction_count: counts.failedTransactions,
    operation_count: counts.operations,
    tx_set_operation_count: counts.operations,
    closed_at: horizonTime(ledger.closedAt),
    total_coins: amount(ledger.totalCoins),
    fee_pool: amount(ledger.feePool),
    base_fee_in_stroops: Number(BASE_FEE),
    base_reserve_in_stroops: BASE_RESERVE_STROOPS,
    max_tx_set_size: MAX_TX_SET_SIZE,
    protocol_version: PROTOCOL_VERSION,
  }
}

/** The root document, with the latest closed ledger. */
export function toRootRecord(h: HorizonContext, latest: { sequence: number; closedAt: number } | undefined) {
  return {
    _links: {
      account: templated(`${h.baseUrl}/accounts/{account_id}`),
      account_transactions: templated(`${h.baseUrl}/accounts/{account_id}/transactions${PAGING}`),
      fee_stats: href(`${h.baseUrl}/fee_stats`),
      ledger: templated(`${h.baseUrl}/ledgers/{sequence}`),
      payments: templated(`${h.baseUrl}/payments${PAGING}`),
      self: href(h.baseUrl),
      transaction: templated(`${h.baseUrl}/transactions/{hash}`),
      transactions: templated(`${h.baseUrl}/transactions${PAGING}`),
    },
    horizon_version: 'paybox-sandbox',
    core_version: 'paybox simulated ledger',
    ingest_latest_ledger: latest?.sequence ?? 0,
    history_latest_ledger: latest?.sequence ?? 0,
    history_latest_ledger_closed_at: latest ? horizonTime(latest.closedAt) : horizonTime(0),
    history_elder_ledger: latest ? 1 : 0,
    core_latest_ledger: latest?.sequence ?? 0,
    network_passphrase: h.networkPassphrase,
    current_protocol_version: PROTOCOL_VERSION,
    supported_protocol_version: PROTOCOL_VERSION,
    core_supported_protocol_version: PROTOCOL_VERSION,
  }
}

/** Fee statistics over recent transactions: per-operation fees charged and bid, in stroops. */
export function toFeeStatsRecord(lastLedger: number, capacityUsage: number, charged: bigint[], bids: bigint[]) {
  return {
    last_ledger: String(lastLedger),
    last_ledger_base_fee: BASE_FEE.toString(),
    ledger_capacity_usage: capacityUsage.toFixed(2),
    fee_charged: percentiles(charged),
    max_fee: percentiles(bids),
  }
}

const PERCENTILES = [10, 20, 30, 40, 50, 60, 70, 80, 90, 95, 99] as const

/** Nearest-rank percentiles, max, min and mode; with no data, the base fee throughout. */
function percentiles(values: bigint[]): Record<string, string> {
  const sorted = values.length > 0 ? [...values].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0)) : [BASE_FEE]
  const rank = (p: number) => sorted[Math.max(0, Math.ceil((p / 100) * sorted.length) - 1)]!.toString()
  const counts = new Map<bigint, number>()
  for (const value of sorted) counts.set(value, (counts.get(value) ?? 0) + 1)
  // The most frequent value; the smallest of equally frequent ones.
  let mode = sorted[0]!
  for (const [value, count] of counts) if (count > counts.get(mode)!) mode = value
  return {
    max: sorted.at(-1)!.toString(),
    min: sorted[0]!.toString(),
    mode: mode.toString(),
    ...Object.fromEntries(PERCENTILES.map((p) => [`p${p}`, rank(p)])),
  }
}
