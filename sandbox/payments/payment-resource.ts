// The JSON shape of a payment (spec 2.1), built from its row. Units: amount.value and
// amount_paid are smallest units of the pricing currency; settlement_amount and settlement_fee
// are USDC as decimal numbers (7 places at most).
import { USDC_SCALE, formatDecimalShort } from '../../src/money.js'
import type { SandboxIdentity } from '../context.js'
import { toIso } from '../clock.js'
import type { PaymentRow } from '../db/schema.js'
import { publicLink } from '../public-links.js'
import { USDC_ASSET_CODE } from '../ledger/ledger-accounts.js'
import { buildPayUri } from '../ledger/sep7.js'
import type { HistoryEntry } from './payment-lifecycle.js'

export interface PaymentLinks {
  publicUrl: string
  identity: Pick<SandboxIdentity, 'usdcIssuer'>
}

// Both operands are exact doubles and IEEE division rounds correctly: the same double the decimal
// text ("12.5") parses to (test/unit/money.test.ts compares the two).
export const usdcNumber = (stroops: number): number => stroops / STROOPS_PER_USDC

const STROOPS_PER_USDC = 10 ** USDC_SCALE

export function hostedUrl(payment: PaymentRow, publicUrl: string): string {
  return publicLink(publicUrl, `/checkout/${payment.id}`, {
    paymentId: payment.id,
    auth_token: payment.auth_token,
    lang: payment.locale,
  })
}

export const shortUrl = (payment: PaymentRow, publicUrl: string): string => publicLink(publicUrl, `/s/${payment.short_code}`)

export function walletUri(payment: PaymentRow, usdcIssuer: string): string {
  return buildPayUri({
    destination: payment.destination,
    amount: formatDecimalShort(BigInt(payment.usdc_amount), USDC_SCALE),
    assetCode: USDC_ASSET_CODE,
    assetIssuer: usdcIssuer,
    memo: payment.memo,
    memoType: 'MEMO_TEXT',
    message: payment.description,
  })
}

export function toPaymentResource(payment: PaymentRow, links: PaymentLinks): Record<string, unknown> {
  const resource: Record<string, unknown> = {
    id: payment.id,
    createdAt: toIso(payment.created_at),
    updatedAt: toIso(payment.updated_at),
    expiresAt: toIso(payment.expires_at),
    mode: 'test',
    amount: { value: payment.amount_value, currency: payment.amount_currency },
    description: payment.description,
    status: payment.status,
    settlement_status: payment.settlement_status,
    redirectUrl: payment.redirect_url ?? undefined,
    checkout_id: payment.id,
    webhookUrl: payment.webhook_url ?? undefined,
    hostedUrl: hostedUrl(payment, links.publicUrl),
    shortUrl: shortUrl(payment, links.publicUrl),
    qrCode: walletUri(payment, links.identity.usdcIssuer),
    merchantName: payment.merchant_name,
    cancelUrl: payment.cancel_url ?? undefined,
    locale: payment.locale,
    metadata: payment.metadata === null ? {} : (JSON.parse(payment.metadata) as unknown),
    stellarTxId: payment.stellar_tx_id ?? undefined,
    settlement_stellarTxId: payment.settlement_tx_id ?? undefined,
    settlement_currency: USDC_ASSET_CODE,
    settlement_amount: usdcNumber(payment.settlement_amount),
    settlement_fee: usdcNumber(payment.settlement_fee),
    amount_paid: payment.amount_paid,
    history: JSON.parse(payment.history) as HistoryEntry[],
    sender_account: payment.sender_account ?? undefined,
    asset_id: `${USDC_ASSET_CODE}:${links.identity.usdcIssuer}`,
    refunded: payment.refunded === 1,
    type: 'order',
    partner_id: payment.partner_id ?? undefined,
    storeId: payment.store_id ?? undefined,
  }
  if (payment.escrow_status !== null) {
    Object.assign(resource, {
      escrow_status: payment.escrow_status,
      escrow_order_id: payment.escrow_order_id,
      escrow_contract_address: payment.escrow_contract_address,
      escrow_platform_fee_bps: payment.escrow_fee_bps,
    })
  }
  return resource
}
