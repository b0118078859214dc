// Types of the API as a client sees them: resources (spec section 2) are the z.infer of the
// answers' schemas, request bodies the z.input of the bodies the contract's entries take, so the
// client cannot drift from what the sandbox documents, validates and answers.
import type { z } from 'zod'
import type { Contract, RESPONSE_SCHEMAS } from '../api/contract/index.js'
import type { Entry } from '../api/contract/entry.js'
import type { HealthStatus } from '../api/enumerations.js'

export {
  BRIDGE_ORDER_STATUSES,
  INVOICE_STATUSES,
  LEDGER_ASSET_CODES,
  LEDGER_ROLES,
  WEBHOOK_DELIVERY_STATUSES,
  WEBHOOK_EVENT_TYPES,
} from '../api/enumerations.js'
export type {
  BridgeOrderStatus,
  CustomerType,
  EscrowOrderStatus,
  HealthStatus,
  InvoiceStatus,
  LedgerAccountRole,
  LedgerAssetCode,
  PaymentStatus,
  SettlementStatus,
  WebhookDeliveryStatus,
  WebhookEventType,
} from '../api/enumerations.js'

/** An answer of the API by the component name the OpenAPI document gives it (Resource<'Payment'>). */
export type Resource<Name extends keyof typeof RESPONSE_SCHEMAS> = z.infer<(typeof RESPONSE_SCHEMAS)[Name]>

// Named aliases for the answers clients name most. TypeScript cannot export a type per key of a
// map, so these stay a list; each is one lookup in the component map, never a schema of its own.
export type Payment = Resource<'Payment'>
export type Money = Payment['amount']
export type HistoryEntry = Payment['history'][number]
/** A refund's copy of its payment leaves out checkout_id, shortUrl, settlement_fee and partner_id (spec 2.4). */
export type RefundedPayment = Resource<'RefundedPayment'>
export type Refund = Resource<'Refund'>
export type PageMeta = Resource<'PaymentPage'>['meta']
export type PageLinks = Resource<'PaymentPage'>['links']
/** Lists of the spec (2.9): payments and refunds also carry links. */
export interface Page<T> {
  items: T[]
  meta: PageMeta
  links?: PageLinks
}
export type Currency = Resource<'Currency'>
export type SandboxMerchant = Resource<'SandboxMerchant'>
/** A new customer wallet on the sandbox ledger, with its secret so real Stellar tools can sign for it. */
export type SandboxWallet = Resource<'Wallet'>
export type Merchant = Resource<'Merchant'>
/** One entry of the webhook delivery log (spec 2.8); request_payload and response_body only when reading one entry. */
export type WebhookDelivery = Resource<'WebhookDeliverySummary'> &
  Partial<Pick<Resource<'WebhookDelivery'>, 'request_payload' | 'response_body'>>
export type WebhooksPausedState = Resource<'WebhooksPausedState'>
export type PaymentEvent = Resource<'PaymentEvent'>
/** What the sandbox POSTs to a payment's webhookUrl (spec 6). */
export type WebhookBody = Resource<'WebhookBody'>
export type SandboxClock = Resource<'SandboxClock'>
export type AdvancedClock = Resource<'AdvancedClock'>
export type DashboardSignInLink = Resource<'DashboardSignInLink'>
export type PaymentWebhooksState = Resource<'PaymentWebhooksState'>
export type CreatedTenant = Resource<'CreatedTenant'>
export type TenantList = Resource<'TenantList'>
export type Tenant = TenantList['data'][number]
export type ArchivedTenant = Resource<'ArchivedTenant'>
/** GET /health: each part of the sandbox and whether it works (503, with status failing, when one does not). */
export type SandboxHealth = Omit<Resource<'Health'>, 'status'> & { status: HealthStatus }
export type SandboxSnapshot = Resource<'Snapshot'>
/** What a snapshot restore or a reset leaves: the merchants' keys and business time (and the snapshot, on restore). */
export type SandboxStateSwap = Resource<'ResetState'> & { snapshot?: SandboxSnapshot }
export type EscrowOrder = Resource<'EscrowOrder'>
export type EscrowTransaction = EscrowOrder['transactions'][number]
export type AccountBalances = Resource<'AccountBalances'>
export type AssetBalance = AccountBalances['items'][number]
export type FeeTier = Resource<'FeeTier'>
export type LedgerAccount = Resource<'LedgerAccount'>
export type LedgerTransaction = Resource<'LedgerTransaction'>
export type LedgerOperation = LedgerTransaction['operations'][number]
export type Invoice = Resource<'Invoice'>
export type InvoiceLineItem = Invoice['line_items'][number]
/** A customer the merchant invoiced, stored at its first invoice (spec 2.3). */
export type Customer = Resource<'Customer'>
export type PostalAddress = NonNullable<Customer['address']>
export type InvoiceSettings = Resource<'InvoiceSettings'>
export type ErrorBody = Resource<'Error'>
/** One API request as the sandbox's request log keeps it: no body, no query string, no credentials. */
export type RequestLogEntry = Resource<'RequestLogEntry'>
export type CrossChainQuote = Resource<'CrossChainQuote'>
/** The bridge's supported origin chains and tokens, and its fee. */
export type OriginChains = Resource<'OriginChains'>
export type OriginChain = OriginChains['items'][number]

/**
 * What the client passes for a list query: the query schema's input, except that the integers
 * (query text on the wire, queryInteger in src/api/validation.ts) are taken as numbers.
 */
export type ClientQuery<Schema extends z.ZodType> = {
  [Key in keyof z.input<Schema>]: Key extends keyof z.output<Schema>
    ? NonNullable<z.output<Schema>[Key]> extends z.$brand<'QueryInteger'>
      ? number
      : z.input<Schema>[Key]
    : z.input<Schema>[Key]
}

// What the client sends, derived from the contract's entries by their client name
// ('payments.create'): the z.input of the body an entry parses with, the ClientQuery of its query.

/** The client names of the entries: payments.create, openapi. */
type NameOf<C> = { [G in keyof C & string]: C[G] extends Entry ? G : `${G}.${keyof C[G] & string}` }[keyof C & string]
export type EntryName = NameOf<Contract>
/** The entry of a client name. */
export type EntryNamed<Name extends EntryName> = Name extends `${infer G extends keyof Contract}.${infer N}`
  ? Contract[G][N & keyof Contract[G]]
  : Contract[Name & keyof Contract]
/** The body an entry takes (never undefined: an optional body is sent as {} or not at all). */
export type BodyOf<Name extends EntryName> =
  EntryNamed<Name> extends { body: infer Body extends z.ZodType } ? NonNullable<z.input<Body>> : never
export type QueryOf<Name extends EntryName> = EntryNamed<Name> extends { query: infer Query extends z.ZodType } ? ClientQuery<Query> : never
/** The answer of an entry, as z.infer of its schema. */
export type AnswerOf<Name extends EntryName> =
  EntryNamed<Name> extends { response: infer Response extends z.ZodType } ? z.infer<Response> : never

export type CreatePaymentRequest = BodyOf<'payments.create'>
export type CreateRefundRequest = BodyOf<'payments.refund'>
export type CrossChainQuoteRequest = BodyOf<'crossChain.quote'>
export type CrossChainDepositRequest = BodyOf<'crossChain.deposit'>
/** A customer given inline when creating an invoice; it is stored and gets an id. */
export type NewCustomer = NonNullable<CreateInvoiceRequest['customer']>
/** Exactly one of customer_id (a stored customer) and customer (a new one). */
export type CreateInvoiceRequest = BodyOf<'invoices.create'>
export type UpdateInvoiceSettingsRequest = BodyOf<'invoices.updateSettings'>
export type CreateMerchantRequest = BodyOf<'sandbox.createMerchant'>
export type CreateTenantRequest = BodyOf<'sandbox.createTenant'>
export type SandboxFailRequest = BodyOf<'sandbox.fail'>
/** Amounts are decimal text with at most 7 places. */
export type CreateWalletRequest = BodyOf<'sandbox.createWallet'>
/** A sandbox customer wallet pays over the ledger. */
export type SandboxPayRequest = BodyOf<'sandbox.pay'>
export type AdvanceClockRequest = BodyOf<'sandbox.advanceClock'>
export type FreezeClockRequest = BodyOf<'sandbox.freezeClock'>
export type SaveSnapshotRequest = BodyOf<'snapshots.save'>

export type ListPaymentsQuery = QueryOf<'payments.list'>
export type ListWebhookDeliveriesQuery = QueryOf<'webhooks.list'>
export type ListRefundsQuery = QueryOf<'refunds.list'>
export type ListInvoicesQuery = QueryOf<'invoices.list'>
export type LedgerAccountsQuery = QueryOf<'ledger.accounts'>
export type LedgerTransactionsQuery = QueryOf<'ledger.transactions'>
/** Which requests a request log list or stream gives: a status class (4xx) or status (404), and a path prefix. */
export type RequestLogQuery = QueryOf<'requestLogs.stream'>
export type RequestLogListQuery = QueryOf<'requestLogs.list'>
