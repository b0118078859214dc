// Invoices follow their payment and the business clock: paid when the linked payment is paid
// (an accepted underpayment included; also when paid after the due date), overdue when the
// due date passes while unpaid.
import type { Kysely } from 'kysely'
import type { SandboxContext } from '../context.js'
import type { Database, PaymentRow } from '../db/schema.js'
import { handleDueInBatches } from '../simulation/due-batches.js'
import { findInvoiceByPayment, findOverdueCandidates, updateInvoice } from './invoice-repository.js'

/** Called with every payment change, in its transaction. */
export async function followPaymentIntoInvoice(db: Kysely<Database>, before: PaymentRow | undefined, after: PaymentRow): Promise<void> {
  if (after.status !== 'paid' || before?.status === 'paid') return
  const invoice = await findInvoiceByPayment(db, after.id)
  if (invoice && (invoice.status === 'sent' || invoice.status === 'overdue')) {
    await updateInvoice(db, invoice.id, { status: 'paid', updated_at: after.updated_at })
  }
}

/** Marks sent invoices past their due date overdue; returns how many. */
export function markOverdueInvoices(ctx: Pick<SandboxContext, 'db' | 'clock' | 'wallClock'>, merchantId?: string): Promise<number> {
  return handleDueInBatches(
    ctx,
    findOverdueCandidates,
    (db, invoice, now) => updateInvoice(db, invoice.id, { status: 'overdue', updated_at: now }),
    merchantId,
  )
}
