// Invoice money (spec 2.2): subtotal = Σ quantity × unit_price, rounded half up once at the end;
// tax_total = subtotal × tax_percentage / 100, rounded half up; total = subtotal + tax_total.
// Quantities and the tax rate are read as exact decimals, so 0.1 × 3 is exactly 0.3.
import { divideRoundHalfUp, numberToScaled } from '../../src/money.js'

/** Decimal places a quantity may have. */
export const QUANTITY_SCALE = 6
/** Decimal places the tax percentage may have. */
export const TAX_SCALE = 4

export interface LineItem {
  description: string
  quantity: number
  /** Smallest units of the invoice currency. */
  unit_price: number
}

export interface InvoiceTotals {
  subtotal: number
  tax_total: number
  total: number
}

export function invoiceTotals(items: readonly LineItem[], taxPercentage: number): InvoiceTotals {
  const quantityUnit = 10n ** BigInt(QUANTITY_SCALE)
  const scaledSum = items.reduce((sum, item) => sum + scaled(item.quantity, QUANTITY_SCALE) * BigInt(item.unit_price), 0n)
  const subtotal = divideRoundHalfUp(scaledSum, quantityUnit)
  const tax = divideRoundHalfUp(subtotal * scaled(taxPercentage, TAX_SCALE), 100n * 10n ** BigInt(TAX_SCALE))
  return { subtotal: Number(subtotal), tax_total: Number(tax), total: Number(subtotal + tax) }
}

function scaled(value: number, scale: number): bigint {
  const exact = numberToScaled(value, scale)
  // Validation refuses such numbers before totals are computed.
  if (exact === undefined) throw new RangeError(`${value} has more than ${scale} decimal places`)
  return exact
}
