// The JSON shape of an invoice (spec 2.2) with its customer (2.3).
import { toIso } from '../clock.js'
import { toCustomerResource } from '../customers/customer-resource.js'
import type { CustomerRow, InvoiceRow } from '../db/schema.js'

export function toInvoiceResource(invoice: InvoiceRow, customer: CustomerRow): Record<string, unknown> {
  return {
    id: invoice.id,
    invoice_number: invoice.invoice_number,
    status: invoice.status,
    currency: invoice.currency,
    line_items: JSON.parse(invoice.line_items) as unknown,
    subtotal: invoice.subtotal,
    tax_percentage: Number(invoice.tax_percentage),
    tax_total: invoice.tax_total,
    total: invoice.total,
    issued_at: toIso(invoice.issued_at),
    due_at: invoice.due_at === null ? null : toIso(invoice.due_at),
    payment_id: invoice.payment_id,
    notes: invoice.notes ?? '',
    customer: toCustomerResource(customer),
    createdAt: toIso(invoice.created_at),
    updatedAt: toIso(invoice.updated_at),
  }
}
