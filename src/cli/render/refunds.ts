// How refunds look in the terminal. Refund amounts are USDC, as they went back over the ledger.
import type { Page, Refund } from '../../client/types.js'
import { colourStatus, details, pageLine, table } from '../output.js'
import { formatUsdc, stroopsOf } from '../usdc.js'

export function renderRefund(refund: Refund): string {
  return details([
    ['Id', refund.refund_id],
    ['Amount', formatUsdc(stroopsOf(refund.amount.value))],
    ['Status', colourStatus(refund.status)],
    ['Settlement tx', refund.settlement_Id],
    ['Payment', refund.paymentId],
    ['Description', refund.description],
    ['Metadata', Object.keys(refund.metadata).length > 0 ? JSON.stringify(refund.metadata) : undefined],
    ['Created', refund.createdAt],
  ])
}

export function renderRefundPage(page: Page<Refund>): string {
  if (page.items.length === 0) return 'No refunds.'
  const rows = page.items.map((r) => [
    r.refund_id,
    formatUsdc(stroopsOf(r.amount.value)),
    colourStatus(r.status),
    r.paymentId,
    r.description.length > 40 ? `${r.description.slice(0, 39)}…` : r.description,
    r.createdAt,
  ])
  return `${table(['Id', 'Amount', 'Status', 'Payment', 'Description', 'Created'], rows)}\n${pageLine(page.meta, 'refund')}`
}
