// Invoice money, computed exactly as the API does (docs/api.md, "Invoices"): subtotal =
// Σ quantity × unit_price, rounded half up once at the end; tax_total = subtotal × tax / 100,
// rounded half up; total = subtotal + tax_total. The CLI shows running totals with it before
// anything is sent, so they must match what the server will compute to the smallest unit.
import { divideRoundHalfUp, numberToScaled } from './money.js'

/** Decimal places a quantity may have. */
export const QUANTITY_SCALE = 6
/** Decimal places a tax percentage may have. */
export const TAX_SCALE = 4

export interface PricedQuantity {
  quantity: number
  /** Smallest units of the invoice currency. */
  unit_price: number
}

export interface InvoiceTotals {
  subtotal: number
  tax_total: number
  total: number
}

/** quantity × unit_price, unrounded: smallest units scaled by 10^QUANTITY_SCALE. */
export function lineAmount(item: PricedQuantity): bigint {
  return scaled(item.quantity, QUANTITY_SCALE) * BigInt(item.unit_price)
}

export function invoiceTotals(items: readonly PricedQuantity[], taxPercentage: number): InvoiceTotals {
  const scaledSum = items.reduce((sum, item) => sum + lineAmount(item), 0n)
  const subtotal = divideRoundHalfUp(scaledSum, 10n ** BigInt(QUANTITY_SCALE))
  const tax = divideRoundHalfUp(subtotal * scaled(taxPercentage, TAX_SCALE), 100n * 10n ** BigInt(TAX_SCALE))
  return { subtotal: Number(subtotal), tax_total: Number(tax), total: Number(subtotal + tax) }
}

function scaled(value: number, scale: number): bigint {
  const exact = numberToScaled(value, scale)
  if (exact === undefined) throw new RangeError(`${value} has more than ${scale} decimal places`)
  return exact
}
