// The JSON shape of a refund (spec 2.4). amount is the USDC paid back, as a decimal number of
// the settlement asset; payment is the refunded payment as it is now.
import { toIso } from '../clock.js'
import type { PaymentRow, RefundRow } from '../db/schema.js'
import { toPaymentResource, usdcNumber, type PaymentLinks } from '../payments/payment-resource.js'
import { USDC_ASSET_CODE } from '../ledger/ledger-accounts.js'

/** Fields of the payment the spec says the refund's copy leaves out. */
const OMITTED_PAYMENT_FIELDS = ['checkout_id', 'shortUrl', 'settlement_fee', 'partner_id']

export function toRefundResource(refund: RefundRow, payment: PaymentRow, links: PaymentLinks): Record<string, unknown> {
  const embedded = toPaymentResource(payment, links)
  for (const field of OMITTED_PAYMENT_FIELDS) delete embedded[field]
  return {
    refund_id: refund.id,
    amount: { asset_id: `${USDC_ASSET_CODE}:${links.identity.usdcIssuer}`, value: usdcNumber(refund.usdc_amount) },
    status: refund.status,
    description: refund.description,
    settlement_Id: refund.settlement_tx_id,
    metadata: refund.metadata === null ? {} : (JSON.parse(refund.metadata) as unknown),
    paymentId: refund.payment_id,
    createdAt: toIso(refund.created_at),
    payment: embedded,
  }
}
