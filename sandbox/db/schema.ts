// Table types for kysely: the one place that says what each table holds.
// Times are integer milliseconds since the epoch (UTC); money is integer smallest units
// (pricing currency) or integer stroops (USDC, 7 decimals); JSON columns hold JSON text.
// Enumerated columns take their types from src/api/enumerations.ts, where each list is declared once.
import type { Generated, Insertable, Selectable, Updateable } from 'kysely'
import type {
  BridgeOrderStatus,
  CustomerType,
  EscrowOrderStatus,
  InvoiceStatus,
  LedgerAccountRole,
  LedgerAssetCode,
  PaymentStatus,
  SettlementMode,
  SettlementStatus,
  WebhookDeliveryStatus,
  WebhookEventType,
  Locale,
  CurrencyCode,
} from '../../src/api/enumerations.js'

export interface SandboxStateTable {
  key: string
  value: string
}

/** The sandbox's webhook egress policy (one row, id 1): what every replica enforces. */
export interface EgressPolicyTable {
  id: number
  /** 1: internal addresses are refused (--shared, or a non-loopback --host). */
  shared: number
  /** JSON array of the --allow-webhook-to entries, normalized and sorted. */
  allow_webhook_to: string
}

export interface MerchantsTable {
  id: string
  name: string
  api_key: string
  api_secret: string
  settlement_mode: SettlementMode
  /** Default escrow platform fee in basis points (escrow merchants). */
  escrow_fee_bps: number
  /** The merchant's settlement account on the ledger (G… address). */
  account_id: string
  created_at: number
  /** 1 while the merchant has paused webhooks: events are logged as skipped. */
  webhooks_paused: number
  /** 1 for a tenant: a merchant made for one job, with its own clock (POST /sandbox/tenants). */
  tenant: Generated<number>
  /** When it was archived: its keys no longer work and its rows leave lists and sweeps. */
  archived_at: number | null
  /** Its own business clock, ahead of the wall clock by this (null: it follows the sandbox-wide clock). */
  clock_offset_ms: number | null
  /** The instant its own clock stands still at, while frozen. */
  clock_frozen_at: number | null
  /** How far its own clock has been advanced. */
  clock_advanced_ms: Generated<number>
}

export interface LedgerAccountsTable {
  public_key: string
  /** Secret seed (S…); null for contract accounts, which have no key. */
  secret: string | null
  role: LedgerAccountRole
  label: string
  created_at: number
  /** Sequence number of the account's last transaction (int64 as decimal text); '0' for contracts. */
  sequence: string
  /**
   * USDC in stroops, as decimal text. The issuer's balance is the negative of all USDC in
   * circulation: it mints by paying and burns by being paid, so the column sums to zero.
   * PostgreSQL stores it numeric, with a CHECK on its sign; the repository reads it back as text.
   */
  usdc_balance: string
  /** XLM in stroops, as decimal text (numeric, at least 0, on PostgreSQL). */
  xlm_balance: string
  /** 1 when the account trusts the sandbox USDC (the default), 0 when it has no trustline. */
  usdc_trustline: Generated<number>
  /** The trustline's limit, stroops as decimal text (int64's largest by default). */
  usdc_limit: Generated<string>
}

export interface LedgerLedgersTable {
  sequence: number
  opened_at: number
  /** Null while the ledger is open; exactly one ledger is open. */
  closed_at: number | null
  transaction_count: number
  /** All XLM in existence as of this ledger (stroops, decimal text): endowments so far. */
  total_coins: string
  /** XLM paid in fees so far (stroops, decimal text); held by the network, not by an account. */
  fee_pool: string
}

export type LedgerMemoType = 'none' | 'text' | 'id' | 'hash' | 'return'

export interface LedgerTransactionsTable {
  /** The transaction hash, hex: its id on the network. */
  hash: string
  /** Application order, from 1: the paging token of transaction lists. */
  position: number
  ledger_sequence: number
  source_account: string
  /** int64 as decimal text. */
  source_sequence: string
  /** Stroops of XLM. */
  fee_charged: number
  memo_type: LedgerMemoType
  /** Text memos as text, id memos as decimal text, hash and return memos as base64. */
  memo: string | null
  /** The signed envelope as submitted, base64 XDR. */
  envelope_xdr: string
  applied_at: number
  /** 0 for a transaction included as failed: its fee was charged and its sequence used, nothing else. */
  successful: Generated<number>
  /** A failed transaction's operation result codes (JSON array); null when it succeeded. */
  operation_results: string | null
  /** What it changed, a TransactionMeta in base64 XDR; null if applied before the sandbox kept it. */
  result_meta_xdr: string | null
  /** What its fee changed, LedgerEntryChanges in base64 XDR; null as result_meta_xdr. */
  fee_meta_xdr: string | null
}

/** Declared with the API's enumerations; the ledger's modules read it here. */
export type { LedgerAssetCode }

export interface LedgerOperationsTable {
  tx_hash: string
  op_index: number
  tx_position: number
  type: 'payment'
  from_account: string
  to_account: string
  asset_code: LedgerAssetCode
  /** Stroops, as decimal text. */
  amount: string
}

export interface PaymentsTable {
  id: string
  merchant_id: string
  status: PaymentStatus
  settlement_status: SettlementStatus
  amount_value: number
  amount_currency: CurrencyCode
  /** USDC the customer is asked to pay, in stroops. */
  usdc_amount: number
  description: string
  merchant_name: string
  redirect_url: string | null
  cancel_url: string | null
  webhook_url: string | null
  locale: Locale
  metadata: string | null
  partner_id: string | null
  store_id: string | null
  memo: string
  destination: string
  auth_token: string
  short_code: string
  amount_paid: number
  /** USDC received so far, in stroops (amount_paid is this in the pricing currency). */
  usdc_received: number
  settlement_amount: number
  settlement_fee: number
  stellar_tx_id: string | null
  settlement_tx_id: string | null
  sender_account: string | null
  refunded: number
  history: string
  escrow_status: EscrowOrderStatus | null
  escrow_order_id: string | null
  escrow_contract_address: string | null
  escrow_fee_bps: number | null
  escrow_payee: string | null
  escrow_expires_at: number | null
  created_at: number
  updated_at: number
  expires_at: number
  /** When settlement completed (settlement_status paid); counts towards the fee tier's volume. */
  settled_at: number | null
  /** USDC refunded so far, in stroops; never more than usdc_received. */
  usdc_refunded: number
  /** 1 when a simulation asked for this payment's settlement to fail. */
  settlement_will_fail: number
  /** Bumped by a trigger on every change of the row (migration 2026-11-22T00-00). */
  version: Generated<number>
}

export interface RefundsTable {
  id: string
  merchant_id: string
  payment_id: string
  status: 'refunded'
  /** USDC paid back to the customer, in stroops. */
  usdc_amount: number
  description: string
  metadata: string | null
  /** Hash of the ledger transaction that paid the customer back. */
  settlement_tx_id: string
  created_at: number
}

/** What an event is about: the kind of the record whose change it reports. */
export type EventSubjectType = 'payment' | 'invoice' | 'refund'

export interface PaymentEventsTable {
  /** Order of events across the sandbox, from 1. */
  sequence: Generated<number>
  merchant_id: string
  subject_type: EventSubjectType
  /** The id of the payment (invoice, refund) the event is about. */
  subject_id: string
  event_type: WebhookEventType
  /** The webhook body of the event, exactly as sent. */
  payload: string
  created_at: number
}

/** When a merchant asked for a webhook resend (wall-clock ms), for the limit per minute. */
export interface WebhookResendTimesTable {
  merchant_id: string
  at: number
}

/** A digest signature a shared sandbox accepted on a request other than GET, until its window ends (wall-clock ms). */
export interface SeenSignaturesTable {
  signature: string
  expires_at: number
}

export interface WebhookDeliveriesTable {
  /** A UUID. */
  id: string
  /** Creation order across the sandbox; a subject's events are delivered in this order. */
  sequence: number
  merchant_id: string
  subject_type: EventSubjectType
  /** The id of the payment (invoice, refund) the event is about. */
  subject_id: string
  event_type: WebhookEventType
  url: string
  /** pending until attempted (the outbox), then success, failed or skipped. */
  status: WebhookDeliveryStatus
  /** The exact JSON text sent and signed. */
  request_payload: string
  /** The receiver's answer, truncated. */
  response_body: string | null
  /** Null when there was no HTTP response (refused, timed out, skipped). */
  http_status: number | null
  error_message: string | null
  /** 1 for the first delivery of an event; a resend counts on from the one it replays. */
  attempt_count: number
  duration_ms: number | null
  /** The delivery this one replays, for resends. */
  resend_of: string | null
  last_attempt_at: number | null
  created_at: number
  updated_at: number
  /** PostgreSQL: the token of the claim a replica sends it under; its outcome is logged only under that token. */
  claim_token: string | null
  /** Until when (wall-clock ms) the claim holds; past it, any replica may claim the delivery again. */
  claimed_until: number | null
  /** The replica that claimed it last (host:pid): the one that sent it. */
  claimed_by: string | null
}

export interface CustomersTable {
  /** A UUID. */
  id: string
  merchant_id: string
  customer_type: CustomerType
  name: string | null
  company_name: string | null
  email: string
  vat_number: string | null
  /** JSON {line1, postal_code, city, country}, or null. */
  address: string | null
  created_at: number
}

export interface InvoicesTable {
  /** A UUID. */
  id: string
  merchant_id: string
  invoice_number: string
  status: InvoiceStatus
  currency: CurrencyCode
  /** JSON [{description, quantity, unit_price}], as given. */
  line_items: string
  /** Smallest units of the currency. */
  subtotal: number
  /** Decimal text, as given ("7.5"). */
  tax_percentage: string
  tax_total: number
  total: number
  issued_at: number
  due_at: number | null
  payment_id: string
  notes: string | null
  customer_id: string
  created_at: number
  updated_at: number
}

export interface InvoiceSettingsTable {
  merchant_id: string
  /** May hold the token {year}. */
  invoice_prefix: string
  /** The counter of the next generated number. */
  next_number: number
}

export interface CrossChainQuotesTable {
  id: string
  payment_id: string
  /** The payment's merchant, so the deadline sweep finds due quotes by that merchant's clock. */
  merchant_id: string
  origin_chain: string
  origin_token: string
  deposit_address: string
  /** Base units of the origin token, decimal text. */
  amount_in: string
  /** USDC stroops the bridge delivers for amount_in. */
  amount_out: number
  refund_address: string
  status: BridgeOrderStatus
  /** The Stellar transaction that delivered the USDC. */
  deposit_tx_id: string | null
  /** The order's deadline on the business clock. */
  expires_at: number
  created_at: number
  /** Base units of the origin token deposited so far, decimal text. */
  amount_deposited: string
  /** Base units refunded to refund_address, decimal text. */
  amount_refunded: string
  /** JSON: [{type: 'deposit' | 'refund', hash, amount, at}] on the origin chain. */
  origin_transactions: string
  /** JSON: [{status, at}], every status the order went through. */
  history: string
  superseded_by: string | null
}

export interface IdempotencyKeysTable {
  merchant_id: string
  key: string
  /** SHA-256 of the canonical request (method, path, body) the key was first used with. */
  request_hash: string
  response_status: number
  /** The exact response text, replayed byte for byte. */
  response_body: string
  created_at: number
}

/** A one-time dashboard sign-in link's token, by its SHA-256; deleted when redeemed. */
export interface DashboardSignInTokensTable {
  token_hash: string
  /** Null: an admin sign-in. */
  merchant_id: string | null
  created_at: number
  expires_at: number
}

/** A dashboard session, by the SHA-256 of the id its cookie holds (wall-clock times). */
export interface DashboardSessionsTable {
  id_hash: string
  /** 1: signed in with the admin token, may look at any merchant. */
  is_admin: number
  /** The merchant being looked at; null for an admin who has not picked one. */
  merchant_id: string | null
  /** The synchronizer token every state-changing form of this session carries. */
  csrf_token: string
  created_at: number
  expires_at: number
}

export interface Database {
  sandbox_state: SandboxStateTable
  egress_policy: EgressPolicyTable
  merchants: MerchantsTable
  ledger_accounts: LedgerAccountsTable
  ledger_ledgers: LedgerLedgersTable
  ledger_transactions: LedgerTransactionsTable
  ledger_operations: LedgerOperationsTable
  payments: PaymentsTable
  refunds: RefundsTable
  payment_events: PaymentEventsTable
  customers: CustomersTable
  invoices: InvoicesTable
  invoice_settings: InvoiceSettingsTable
  cross_chain_quotes: CrossChainQuotesTable
  webhook_deliveries: WebhookDeliveriesTable
  webhook_resend_times: WebhookResendTimesTable
  seen_signatures: SeenSignaturesTable
  idempotency_keys: IdempotencyKeysTable
  dashboard_sign_in_tokens: DashboardSignInTokensTable
  dashboard_sessions: DashboardSessionsTable
  kysely_migration: { name: string; timestamp: string }
  kysely_migration_lock: { id: string; is_locked: Generated<number> }
}

export type { Insertable }
export type MerchantRow = Selectable<MerchantsTable>
export type NewMerchant = Insertable<MerchantsTable>
export type PaymentRow = Selectable<PaymentsTable>
export type NewPayment = Insertable<PaymentsTable>
export type PaymentUpdate = Updateable<PaymentsTable>
export type RefundRow = Selectable<RefundsTable>
export type WebhookDeliveryRow = Selectable<WebhookDeliveriesTable>
export type PaymentEventRow = Selectable<PaymentEventsTable>
export type CustomerRow = Selectable<CustomersTable>
export type InvoiceRow = Selectable<InvoicesTable>
export type InvoiceSettingsRow = Selectable<InvoiceSettingsTable>
export type CrossChainQuoteRow = Selectable<CrossChainQuotesTable>
export type LedgerAccountRow = Selectable<LedgerAccountsTable>
export type LedgerLedgerRow = Selectable<LedgerLedgersTable>
export type LedgerTransactionRow = Selectable<LedgerTransactionsTable>
export type LedgerOperationRow = Selectable<LedgerOperationsTable>
export type DashboardSessionRow = Selectable<DashboardSessionsTable>
