// How payments look in the terminal.
import { PAYABLE_STATUSES } from '../../api/enumerations.js'
import { minorToMajorUnits } from '../../money.js'
import type { PayboxClient } from '../../client/paybox-client.js'
import type { Currency, Page, Payment } from '../../client/types.js'
import { colourStatus, details, pageLine, table } from '../output.js'
import { formatUsdc, stroopsOf } from '../usdc.js'

export type Precisions = ReadonlyMap<string, number>

export const precisionsOf = (currencies: Currency[]): Precisions => new Map(currencies.map((c) => [c.code, c.precision]))

/** The precision of every currency the sandbox prices in, asked of it. */
export const fetchPrecisions = async (client: PayboxClient): Promise<Precisions> => precisionsOf((await client.currencies.list()).items)

export function formatAmount(value: number, currency: string, precisions: Precisions): string {
  const precision = precisions.get(currency)
  return precision === undefined ? `${value} (smallest unit) ${currency}` : `${minorToMajorUnits(value, precision)} ${currency}`
}

/** Whether a payment can still be paid, so its link and QR code are worth showing. */
export const isPayable = (payment: Payment): boolean => (PAYABLE_STATUSES as readonly string[]).includes(payment.status)

export function renderPayment(payment: Payment, precisions: Precisions): string {
  return details([
    ['Id', payment.id],
    ['Status', `${colourStatus(payment.status)} (settlement ${colourStatus(payment.settlement_status)})`],
    ['Price', formatAmount(payment.amount.value, payment.amount.currency, precisions)],
    ['Paid', payment.amount_paid > 0 ? formatAmount(payment.amount_paid, payment.amount.currency, precisions) : undefined],
    settlementRow(payment),
    ['Description', payment.description],
    ['Merchant', payment.merchantName],
    ['Created', payment.createdAt],
    ['Expires', payment.expiresAt],
    ['Store', payment.storeId],
    [
      'Escrow',
      payment.escrow_status
        ? `${payment.escrow_status} (${payment.escrow_order_id}, fee ${payment.escrow_platform_fee_bps} bps)`
        : undefined,
    ],
    ['Hosted URL', payment.hostedUrl],
    ['Short URL', payment.shortUrl],
    ['Wallet URI', payment.qrCode],
  ])
}

/**
 * settlement_amount means two things (docs/api.md, Amounts and their units): the price in USDC
 * until the payment settles, then what the merchant (or escrow payee) keeps after the fee.
 */
function settlementRow(payment: Payment): [string, string] {
  const usdc = (value: number) => formatUsdc(stroopsOf(value))
  if (payment.settlement_status === 'open') return ['Price in USDC', usdc(payment.settlement_amount)]
  if (payment.settlement_status === 'failed') return ['Net in USDC', 'none settled: the funds stay in the merchant account']
  return ['Net in USDC', `${usdc(payment.settlement_amount)} after a ${usdc(payment.settlement_fee)} fee`]
}

export function renderPaymentPage(page: Page<Payment>, precisions: Precisions): string {
  if (page.items.length === 0) return 'No payments match.'
  const rows = page.items.map((p) => [
    p.id,
    colourStatus(p.status),
    formatAmount(p.amount.value, p.amount.currency, precisions),
    p.description.length > 40 ? `${p.description.slice(0, 39)}…` : p.description,
    p.createdAt,
  ])
  return `${table(['Id', 'Status', 'Amount', 'Description', 'Created'], rows)}\n${pageLine(page.meta, 'payment')}`
}

/** The line after a simulated customer payment: "Paid 5.00 USD (5.0000000 USDC) from G…; status underpaid". */
export function renderPaySummary(payment: Payment, paid: { units: number; usdc: bigint }, precisions: Precisions): string {
  const amount = formatAmount(paid.units, payment.amount.currency, precisions)
  const from = payment.sender_account ? ` from ${payment.sender_account}` : ''
  return `Paid ${amount} (${formatUsdc(paid.usdc)})${from}; status ${colourStatus(payment.status)}`
}
