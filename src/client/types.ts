// Resource types of the API, as a client sees them (spec section 2).

export interface Money {
  value: number
  currency: string
}

export interface HistoryEntry {
  time: number
  status: string
  description: string
}

export interface Payment {
  id: string
  createdAt: string
  updatedAt: string
  expiresAt: string
  mode: string
  amount: Money
  description: string
  status: string
  settlement_status: string
  redirectUrl?: string
  checkout_id: string
  webhookUrl?: string
  hostedUrl: string
  shortUrl?: string
  qrCode: string
  merchantName: string
  cancelUrl?: string
  locale: string
  metadata: Record<string, unknown>
  stellarTxId?: string
  settlement_stellarTxId?: string
  settlement_currency: string
  settlement_amount: number
  settlement_fee: number
  amount_paid: number
  history: HistoryEntry[]
  sender_account?: string
  asset_id: string
  refunded: boolean
  type: string
  partner_id?: string
  storeId?: string
  escrow_status?: string
  escrow_order_id?: string
  escrow_contract_address?: string
  escrow_platform_fee_bps?: number
}

export interface CreatePaymentRequest {
  amount: Money
  description: string
  redirectUrl?: string
  name?: string
  cancelUrl?: string
  webhookUrl?: string
  locale?: 'en' | 'es'
  metadata?: Record<string, unknown>
  partnerId?: string
  escrowPayee?: string
  escrowPlatformFee?: number
  expiresInHours?: number
  storeId?: string
  escrowExpiresAt?: string
}

export interface ListPaymentsQuery {
  page?: number
  limit?: number
  status?: string
  startDate?: string
  endDate?: string
  storeId?: string
}

export interface PageMeta {
  totalItems: number
  itemCount: number
  itemsPerPage: number
  totalPages: number
  currentPage: number
}

export interface PageLinks {
  first: string
  previous: string
  next: string
  last: string
}

export interface Page<T> {
  items: T[]
  meta: PageMeta
  links?: PageLinks
}

export interface Currency {
  resource: 'currencies'
  name: string
  code: string
  symbol: string
  precision: number
}

export interface SandboxMerchant {
  id: string
  name: string
  apiKey: string
  apiSecret: string
  settlement_mode: 'direct' | 'escrow'
  account: string
}

export interface SandboxClock {
  /** Business time, ISO 8601. */
  now: string
  /** How far business time has been advanced past the wall clock. */
  advancedSeconds: number
}

/** Body of POST /sandbox/payments/{id}/pay: a sandbox customer wallet pays over the ledger. */
export interface SandboxPayRequest {
  /** Smallest units of the pricing currency; default: what remains. */
  amount?: number
  /** The paying customer wallet (G…); default: the one holding the most USDC. */
  from?: string
  /** Make the payment's settlement fail when it comes. */
  failSettlement?: boolean
}

export interface SandboxFailRequest {
  reason?: string
}

export interface CreateRefundRequest {
  /** Smallest units of the pricing currency; default: everything still refundable. */
  amount?: number
  description?: string
  metadata?: Record<string, unknown>
}

export interface Refund {
  refund_id: string
  /** `value` is USDC as a decimal number (7 places at most). */
  amount: { asset_id: string; value: number }
  status: string
  description: string
  /** Hash of the ledger transaction that paid the customer back. */
  settlement_Id: string
  metadata: Record<string, unknown>
  paymentId: string
  createdAt: string
  /** The refunded payment as it is now. */
  payment: RefundedPayment
}

/** A refund's copy of its payment leaves these fields out (spec 2.4). */
export type RefundedPayment = Omit<Payment, 'checkout_id' | 'shortUrl' | 'settlement_fee' | 'partner_id'>

export interface ListRefundsQuery {
  page?: number
  limit?: number
}

export interface AssetBalance {
  /** `USDC:<issuer>` or `native`. */
  asset_id: string
  asset_code: string
  /** Decimal text with 7 places. */
  balance: string
}

export interface AccountBalances {
  /** The merchant's settlement account (G…). */
  account: string
  items: AssetBalance[]
}

export interface FeeTier {
  tierId: string
  tierName: string
  ratePercent: number
  /** Settled volume over the window, USD. */
  volume: number
  windowDays: number
  nextTier: null | {
    name: string
    ratePercent: number
    /** USD of volume from which it applies. */
    minVolume: number
    amountToNext: number
  }
}

export type LedgerAccountRole = 'issuer' | 'merchant' | 'escrow' | 'platform_fee' | 'customer'

export interface LedgerAccount {
  publicKey: string
  role: LedgerAccountRole
  label: string
  sequence: string
  /** Decimal text: USDC with 7 places, XLM. */
  balances: { USDC: string; XLM: string }
  createdAt: string
}

export interface LedgerOperation {
  index: number
  type: 'payment'
  from: string
  to: string
  asset: 'USDC' | 'XLM'
  /** Decimal text with 7 places. */
  amount: string
}

export interface LedgerTransaction {
  hash: string
  /** Order of application across the whole ledger history; `after` pages by it. */
  position: number
  ledger: number
  sourceAccount: string
  sourceSequence: string
  /** Stroops of XLM. */
  feeCharged: string
  memoType: 'none' | 'text' | 'id' | 'hash' | 'return'
  memo: string | null
  operations: LedgerOperation[]
  signatures: number
  envelopeXdr: string
  appliedAt: string
  closedAt: string | null
}

export interface LedgerTransactionsQuery {
  /** Only transactions this account (G…) sent, or that pay to or from it. */
  account?: string
  /** 1–200. */
  limit?: number
  order?: 'asc' | 'desc'
  /** Only transactions past this position (in the chosen order). */
  after?: number
}

export interface ErrorBody {
  statusCode: number
  reason: string
  message?: string
}
