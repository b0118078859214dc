import { describe, expect, it } from 'vitest'
import { formatInvoiceNumber } from '../../sandbox/invoices/invoice-numbering.js'
import { isValidInvoicePrefix as isValidPrefix } from '../../src/api/contract/invoices.js'
import { invoiceTotals } from '../../src/invoice-totals.js'

const item = (quantity: number, unit_price: number) => ({ description: 'x', quantity, unit_price })

describe('invoice totals', () => {
  it('sums exactly, with no binary-float drift', () => {
    // 0.1 + 0.1 + 0.1 is 0.30000000000000004 in floats; here 3 × 0.1 × 1000 is exactly 300.
    expect(invoiceTotals([item(0.1, 1000), item(0.1, 1000), item(0.1, 1000)], 0)).toEqual({ subtotal: 300, tax_total: 0, total: 300 })
    expect(invoiceTotals([item(0.7, 10), item(0.2, 10), item(0.1, 10)], 0).subtotal).toBe(10)
  })

  it('rounds the subtotal half up once, at the end, not per line', () => {
    // 0.5 + 0.5 = 1 (per-line rounding would give 2); 1.5 rounds up to 2; 2.4999 down to 2.
    expect(invoiceTotals([item(0.5, 1), item(0.5, 1)], 0).subtotal).toBe(1)
    expect(invoiceTotals([item(1.5, 1)], 0).subtotal).toBe(2)
    expect(invoiceTotals([item(2.4999, 1)], 0).subtotal).toBe(2)
    expect(invoiceTotals([item(0.000001, 499_999)], 0).subtotal).toBe(0)
    expect(invoiceTotals([item(0.000001, 500_000)], 0).subtotal).toBe(1)
  })

  it('rounds tax half up on the subtotal, from 0 to 100 percent', () => {
    expect(invoiceTotals([item(1, 1000)], 0)).toEqual({ subtotal: 1000, tax_total: 0, total: 1000 })
    expect(invoiceTotals([item(1, 1000)], 100)).toEqual({ subtotal: 1000, tax_total: 1000, total: 2000 })
    expect(invoiceTotals([item(1, 10)], 5)).toEqual({ subtotal: 10, tax_total: 1, total: 11 }) // 0.5 rounds up
    expect(invoiceTotals([item(1, 10)], 4.9999)).toEqual({ subtotal: 10, tax_total: 0, total: 10 })
    expect(invoiceTotals([item(1, 999)], 7.25)).toEqual({ subtotal: 999, tax_total: 72, total: 1071 }) // 72.4275
    expect(invoiceTotals([item(3, 333)], 21)).toEqual({ subtotal: 999, tax_total: 210, total: 1209 }) // 209.79
  })

  it('is exact for large amounts', () => {
    expect(invoiceTotals([item(1000, 100_000_000)], 19.5)).toEqual({
      subtotal: 100_000_000_000,
      tax_total: 19_500_000_000,
      total: 119_500_000_000,
    })
    expect(invoiceTotals([item(999_999.999999, 1)], 0).subtotal).toBe(1_000_000)
  })
})

describe('invoice numbers', () => {
  const at2026 = Date.UTC(2026, 11, 31, 23, 59, 59)
  const at2027 = Date.UTC(2027, 0, 1, 0, 0, 0)

  it('pads the counter to at least 4 digits and replaces {year} with the UTC year at issue', () => {
    expect(formatInvoiceNumber('INV-', 1, at2026)).toBe('INV-0001')
    expect(formatInvoiceNumber('INV-{year}-', 42, at2026)).toBe('INV-2026-0042')
    expect(formatInvoiceNumber('INV-{year}-', 43, at2027)).toBe('INV-2027-0043')
    expect(formatInvoiceNumber('ACME/', 10_000, at2026)).toBe('ACME/10000')
    expect(formatInvoiceNumber('', 7, at2026)).toBe('0007')
  })

  it('accepts letters, digits, space, - _ . / and {year} only, up to 24 characters', () => {
    for (const ok of ['INV-', 'Factura {year}/', 'A.B_C-D/', '{year}{year}', 'Ñandú 2026-', 'x'.repeat(24)])
      expect(isValidPrefix(ok), ok).toBe(true)
    for (const bad of ['INV#', '{years}', '{YEAR}', 'a\nb', 'x'.repeat(25), '<script>', 'INV:', '{year'])
      expect(isValidPrefix(bad), bad).toBe(false)
  })
})
