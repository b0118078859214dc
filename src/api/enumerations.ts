// Every enumeration of the API, declared once: the response and request schemas, the client's
// types, the CLI's flag options and the sandbox's rules all read these lists.

export const PAYMENT_STATUSES = ['open', 'underpaid', 'paid', 'expired', 'failed', 'canceled'] as const
export type PaymentStatus = (typeof PAYMENT_STATUSES)[number]

/** The statuses in which a payment can still take money; every other status is final. */
export const PAYABLE_STATUSES = ['open', 'underpaid'] as const satisfies readonly PaymentStatus[]

export const SETTLEMENT_STATUSES = ['open', 'processing', 'paid', 'failed'] as const
export type SettlementStatus = (typeof SETTLEMENT_STATUSES)[number]

/** created until the payment is paid in full; funded from then on, released or not; failed unfunded. */
export const ESCROW_STATUSES = ['created', 'funded', 'failed'] as const
export type EscrowOrderStatus = (typeof ESCROW_STATUSES)[number]

/** The pricing currencies (spec 2.6); their names, symbols and sandbox rates are sandbox/currencies/currency-table.ts's. */
export const CURRENCY_CODES = ['USD', 'EUR', 'GBP', 'JPY', 'CHF', 'CAD', 'AUD', 'MXN', 'BRL'] as const
export type CurrencyCode = (typeof CURRENCY_CODES)[number]

export const LOCALES = ['en', 'es'] as const
export type Locale = (typeof LOCALES)[number]

export const SETTLEMENT_MODES = ['direct', 'escrow'] as const
export type SettlementMode = (typeof SETTLEMENT_MODES)[number]

export const WEBHOOK_EVENT_TYPES = ['transaction_created', 'transaction_updated', 'transaction_failed'] as const
export type WebhookEventType = (typeof WEBHOOK_EVENT_TYPES)[number]

/** pending: not attempted yet; skipped: not sent (webhooks paused, or a URL the sandbox refuses). */
export const WEBHOOK_DELIVERY_STATUSES = ['pending', 'success', 'failed', 'skipped'] as const
export type WebhookDeliveryStatus = (typeof WEBHOOK_DELIVERY_STATUSES)[number]

/** sent at creation; paid with its payment; overdue past due_at while unpaid; voided by cancel. The sandbox never produces draft. */
export const INVOICE_STATUSES = ['draft', 'sent', 'paid', 'overdue', 'voided'] as const
export type InvoiceStatus = (typeof INVOICE_STATUSES)[number]

export const CUSTOMER_TYPES = ['business', 'individual'] as const
export type CustomerType = (typeof CUSTOMER_TYPES)[number]

/** GET /health: the sandbox and each of its parts either work or not (503 when one does not). */
export const HEALTH_STATUSES = ['ok', 'failing'] as const
export type HealthStatus = (typeof HEALTH_STATUSES)[number]

/** Who holds a sandbox ledger account; bridge is the simulated cross-chain bridge's account. */
export const LEDGER_ROLES = ['issuer', 'merchant', 'escrow', 'platform_fee', 'customer', 'bridge'] as const
export type LedgerAccountRole = (typeof LEDGER_ROLES)[number]

/** The assets of the sandbox ledger: USDC, which pays, and XLM, the network's own (fees; a wrong asset for a payment). */
export const LEDGER_ASSET_CODES = ['USDC', 'XLM'] as const
export type LedgerAssetCode = (typeof LEDGER_ASSET_CODES)[number]

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
