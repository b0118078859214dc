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
  escrow_status?: EscrowOrderStatus
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
  /** Default platform fee of the merchant's escrow orders, basis points (0 for direct merchants). */
  escrow_fee_bps: number
}

/** Body of POST /sandbox/merchants (admin token). */
export interface CreateMerchantRequest {
  name: string
  settlement_mode: 'direct' | 'escrow'
  /** 0–10000; only for escrow merchants (default 0). */
  escrow_fee_bps?: number
}

/** Body of POST /sandbox/wallets (admin token): decimal text with at most 7 places. */
export interface CreateWalletRequest {
  /** USDC the issuer pays the wallet, 0–1000000; default "100". */
  usdc?: string
  /** XLM the account is created with, 1–1000000; default "10000". */
  xlm?: string
  /** false: a wallet without a USDC trustline (it holds no USDC; paying USDC from or to it fails). */
  trustline?: boolean
  /** The USDC trustline's limit (default the largest, 922337203685.4775807); paying past it fails with op_line_full. */
  usdcLimit?: string
}

/** A new customer wallet on the sandbox ledger, with its secret so real Stellar tools can sign for it. */
export interface SandboxWallet {
  publicKey: string
  secret: string
  /** Decimal text with 7 places. */
  balances: { USDC: string; XLM: string }
  /** The issuer's USDC payment to the wallet; null when no USDC was asked for. */
  fundingTxId: string | null
  /** Its USDC trustline's limit (decimal text); null for a wallet made without a trustline. */
  usdcTrustline: { limit: string } | null
  /** The sandbox's Horizon API: `new Horizon.Server(horizonUrl, { allowHttp: true })`. */
  horizonUrl: string
  networkPassphrase: string
}

/** The authenticated merchant (GET /merchant). */
export interface Merchant {
  id: string
  name: string
  settlement_mode: 'direct' | 'escrow'
  /** The merchant's settlement account (G…). */
  account: string
  webhooks_paused: boolean
}

export const WEBHOOK_EVENT_TYPES = ['transaction_created', 'transaction_updated', 'transaction_failed'] as const
export type WebhookEventType = (typeof WEBHOOK_EVENT_TYPES)[number]

export const WEBHOOK_DELIVERY_STATUSES = ['pending', 'success', 'failed', 'skipped'] as const
/** pending: not attempted yet; skipped: not sent (webhooks paused, or a URL the sandbox refuses). */
export type WebhookDeliveryStatus = (typeof WEBHOOK_DELIVERY_STATUSES)[number]

/** One entry of the webhook delivery log (spec 2.8). */
export interface WebhookDelivery {
  id: string
  merchant_id: string
  /** The payment (pt_…) the event is about. */
  checkout_id: string
  event_type: WebhookEventType
  url: string
  status: WebhookDeliveryStatus
  /** null when there was no HTTP answer (connection refused, timed out, skipped, pending). */
  http_status: number | null
  error_message: string | null
  attempt_count: number
  duration_ms: number | null
  /** The delivery this one resent. */
  resend_of: string | null
  last_attempt_at: string | null
  created_at: string
  updated_at: string
  /** The exact JSON text sent and signed; only when reading one entry. */
  request_payload?: string
  /** What the receiver answered (cut at 4 KiB); only when reading one entry. */
  response_body?: string | null
}

export interface ListWebhookDeliveriesQuery {
  status?: WebhookDeliveryStatus
  /** Only deliveries about this payment (pt_…). */
  checkout_id?: string
  page?: number
  limit?: number
}

export interface WebhooksPausedState {
  merchant_id: string
  webhooks_paused: boolean
}

/** A payment event of the merchant, as the events stream sends it (with or without webhookUrl). */
export interface PaymentEvent {
  /** Increasing across the sandbox; the stream's event id, to resume after. */
  sequence: number
  event_type: WebhookEventType
  checkout_id: string
  /** The exact webhook body text: what a receiver gets and the signature covers. */
  payload: string
  created_at: string
}

export interface SandboxClock {
  /** Business time, ISO 8601. */
  now: string
  /** How far business time has been advanced past the wall clock. */
  advancedSeconds: number
  /** Present while business time is frozen: the instant it stands still at. */
  frozenAt?: string
}

/** GET /health: each part of the sandbox and whether it works (503 when one does not). */
export interface SandboxHealth {
  status: 'ok' | 'failing'
  checks: Record<'database' | 'ledger' | 'webhooks', { status: 'ok' | 'failing'; detail?: string }>
}

/** A saved copy of a sandbox's whole state (GET /sandbox/snapshots). */
export interface SandboxSnapshot {
  name: string
  /** Bytes. */
  size: number
  createdAt: string
}

/** What a snapshot restore or a reset leaves: the merchants' keys and business time. */
export interface SandboxStateSwap {
  merchants: Array<Omit<SandboxMerchant, 'account' | 'escrow_fee_bps'>>
  clock: { now: string; frozenAt?: string }
  /** The snapshot restored (restore only). */
  snapshot?: SandboxSnapshot
}

/** Body of POST /sandbox/payments/{id}/pay: a sandbox customer wallet pays over the ledger. */
export interface SandboxPayRequest {
  /** Smallest units of the pricing currency; default: what remains. */
  amount?: number
  /** The paying customer wallet (G…); default: the one holding the most USDC. */
  from?: string
  /** Make the payment's settlement fail when it comes. */
  failSettlement?: boolean
  /** Send with this text memo instead of the payment's (at most 28 bytes): the money lands but pays nothing unless the memo is another payment's. */
  memo?: string
  /** XLM sends the same number of units in XLM: the money lands but pays nothing. Default USDC. */
  asset?: 'USDC' | 'XLM'
}

export interface SandboxFailRequest {
  reason?: string
}

/** created until the payment is paid in full; funded from then on, released or not; failed unfunded. */
export type EscrowOrderStatus = 'created' | 'funded' | 'failed'

/** One ledger transaction of an escrow order: its funding or its release. */
export interface EscrowTransaction {
  hash: string
  ledger: number
  appliedAt: string
  /** False for a funding the ledger included as failed (the customer paid its fee; nothing moved). */
  successful: boolean
  /** Amounts are decimal text with 7 places. */
  operations: Array<Pick<LedgerOperation, 'from' | 'to' | 'asset' | 'amount'>>
}

/** GET /sandbox/payments/{id}/escrow: an escrow merchant's order, its custody and its transactions. */
export interface EscrowOrder {
  paymentId: string
  escrow_order_id: string
  escrow_status: EscrowOrderStatus
  /** The escrow contract (C…). */
  escrow_contract_address: string
  /** The classic account (G…) holding the contract's USDC. */
  custody_account: string
  /** USDC in the custody account, every order's: decimal text with 7 places. */
  contract_balance: string
  /** USDC the custody holds for this order until it is released: decimal text with 7 places. */
  held: string
  /** Who the release pays (G…). */
  payee: string
  escrow_platform_fee_bps: number
  escrow_expires_at: string | null
  settlement_status: string
  /** Oldest first. */
  transactions: EscrowTransaction[]
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
  /** False for a transaction included in its ledger as failed: the fee was charged and the sequence used, nothing else. */
  successful: boolean
  /** A failed transaction's result per operation (op_success, op_underfunded, op_no_trust, op_line_full, …); null when it succeeded. */
  operationResults: string[] | null
  memoType: 'none' | 'text' | 'id' | 'hash' | 'return'
  memo: string | null
  operations: LedgerOperation[]
  signatures: number
  envelopeXdr: string
  appliedAt: string
  closedAt: string | null
  /** The payment whose memo the transaction carries, or null. */
  payment: string | null
  /** It carries a memo no payment has: the money landed but paid nothing. */
  unmatched: boolean
  /** The transaction on the sandbox's Horizon API. */
  horizonUrl: string
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

export const INVOICE_STATUSES = ['draft', 'sent', 'paid', 'overdue', 'voided'] as const
/** sent at creation; paid with its payment; overdue past due_at while unpaid; voided by cancel. The sandbox never produces draft. */
export type InvoiceStatus = (typeof INVOICE_STATUSES)[number]

export interface InvoiceLineItem {
  description: string
  /** Greater than 0, at most 6 decimal places. */
  quantity: number
  /** Smallest units of the invoice currency. */
  unit_price: number
}

export interface PostalAddress {
  line1: string
  postal_code: string
  city: string
  country: string
}

export type CustomerType = 'business' | 'individual'

/** A customer the merchant invoiced, stored at its first invoice (spec 2.3). */
export interface Customer {
  id: string
  customer_type: CustomerType
  name: string | null
  company_name: string | null
  email: string
  vat_number: string | null
  address: PostalAddress | null
}

/** A customer given inline when creating an invoice; it is stored and gets an id. */
export interface NewCustomer {
  email: string
  /** Default business. */
  customer_type?: CustomerType
  name?: string
  company_name?: string
  vat_number?: string
  address?: PostalAddress
}

/** An invoice with its customer (spec 2.2). Amounts are integers in the currency's smallest unit. */
export interface Invoice {
  id: string
  invoice_number: string
  status: InvoiceStatus
  currency: string
  line_items: InvoiceLineItem[]
  subtotal: number
  tax_percentage: number
  tax_total: number
  total: number
  issued_at: string
  due_at: string | null
  /** The linked payment (pt_…) the customer pays the invoice with. */
  payment_id: string
  /** "" when none was given. */
  notes: string
  customer: Customer
  createdAt: string
  updatedAt: string
}

/** Body of POST /invoices: exactly one of customer_id (a stored customer) and customer (a new one). */
export type CreateInvoiceRequest = {
  currency: string
  line_items: InvoiceLineItem[]
  /** 0–100, at most 4 decimal places; default 0. */
  tax_percentage?: number
  /** ISO 8601 date-time with an offset, in the future. */
  due_at?: string
  notes?: string
  /** Default: the next number of the merchant's sequence. */
  invoice_number?: string
} & ({ customer_id: string; customer?: undefined } | { customer: NewCustomer; customer_id?: undefined })

export interface ListInvoicesQuery {
  status?: InvoiceStatus
  page?: number
  limit?: number
}

export interface InvoiceSettings {
  /** May contain {year}, replaced by the UTC year at issue. */
  invoice_prefix: string
  next_number: number
  /** Exactly the number the next invoice would get now. */
  preview: string
}

export interface UpdateInvoiceSettingsRequest {
  invoice_prefix?: string
  /** Only forward: at least the current next number. */
  next_number?: number
}

export interface ErrorBody {
  statusCode: number
  reason: string
  message?: string
  /** The request's id, as in its Request-Id header. */
  requestId?: string
}

/** One API request as the sandbox's request log keeps it: no body, no query string, no credentials. */
export interface RequestLogEntry {
  /** As in the response's Request-Id header (and an error body's requestId). */
  requestId: string
  /** When the request arrived (ISO 8601, real time). */
  time: string
  method: string
  /** The path, without its query string. */
  path: string
  /** The response status; 0 when the client went away before an answer was sent. */
  status: number
  durationMs: number
  /** The merchant whose key signed the request; null for public, admin and refused requests. */
  merchantId: string | null
  idempotencyKey: string | null
}

/** Which requests a request log list or stream gives: a status class (4xx) or status (404), and a path prefix. */
export interface RequestLogQuery {
  status?: string
  path?: string
}

export interface CrossChainQuoteRequest {
  originChain: string
  originToken: string
  /** An address on the origin chain, where the bridge would return the funds. */
  refundAddress: string
}

export interface CrossChainQuote {
  quoteId: string
  paymentId: string
  originChain: string
  originToken: string
  /** Where the customer sends the origin token, in that chain's address format. */
  depositAddress: string
  /** What to send, in the origin token, decimal text (bridge fee included). */
  amountIn: string
  /** USDC that arrives, 7-decimal text. */
  amountOut: string
  bridgeFeeBps: number
  refundAddress: string
  /** The order's deadline, on the sandbox's business clock. */
  expiresAt: string
  status: BridgeOrderStatus
  /** Origin token deposited so far, and sent back to refundAddress, decimal text. */
  amountDeposited: string
  amountRefunded: string
  /** USDC the bridge delivered to the payment, 7-decimal text. */
  usdcDelivered: string
  /** The newer quote of the same payment that replaced this one; its address stopped taking deposits. */
  supersededBy: string | null
  /** The Stellar transaction that delivered the USDC. */
  depositTxId?: string
  transactions: {
    origin: Array<{ type: 'deposit' | 'refund'; hash: string; amount: string; at: string }>
    stellar: Array<{ type: 'delivery'; hash: string }>
  }
  history: Array<{ status: BridgeOrderStatus; at: string }>
}

/** A bridge order's statuses in lifecycle order: NEAR Intents' 1Click's, plus EXPIRED (deadline passed, nothing deposited). */
export const BRIDGE_ORDER_STATUSES = [
  'PENDING_DEPOSIT',
  'INCOMPLETE_DEPOSIT',
  'KNOWN_DEPOSIT_TX',
  'PROCESSING',
  'SUCCESS',
  'REFUNDED',
  'FAILED',
  'EXPIRED',
] as const
export type BridgeOrderStatus = (typeof BRIDGE_ORDER_STATUSES)[number]

/** Body of POST /sandbox/cross-chain/quotes/{quoteId}/deposit. */
export interface CrossChainDepositRequest {
  /** What the customer sent, in the origin token, decimal text (default: what the order still lacks). */
  amountIn?: string
  /** The simulated bridge fails the order: its deposits are refunded. */
  fail?: boolean
}

export interface OriginChain {
  id: string
  name: string
  addressFormat: 'evm' | 'solana'
  tokens: Array<{ symbol: string; decimals: number; usdRate: string }>
}
