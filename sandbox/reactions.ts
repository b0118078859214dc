// What the sandbox does when something happens, in one place. After a payment changes (in the
// same transaction): its webhook event is queued, its invoice follows, and a payment that has
// just become paid starts settling. After the ledger applies a transaction, money carrying a
// payment's memo counts towards it; after a ledger closes, its settlements are complete.
import type { SandboxContext } from './context.js'
import { followPaymentIntoInvoice } from './invoices/invoice-sync.js'
import { paymentReceiver } from './payments/payment-receipts.js'
import { completeSettlements, settleWhenPaid } from './settlement/settlement-service.js'
import { recordPaymentEvent } from './webhooks/payment-events.js'

export function wireReactions(ctx: SandboxContext): void {
  ctx.payments.onChange(recordPaymentEvent)
  ctx.payments.onChange(followPaymentIntoInvoice)
  ctx.payments.onChange(settleWhenPaid(ctx))
  ctx.ledger.onApplied(paymentReceiver(ctx))
  ctx.ledger.onClosed(completeSettlements(ctx))
}
