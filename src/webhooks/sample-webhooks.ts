// Webhook bodies of a made-up 25.00 USD payment (created, underpaid, paid), as the sandbox sends them,
// for grading a receiver without a sandbox.
import { randomUUID } from 'node:crypto'
import type { HistoryEntry } from '../client/types.js'
import type { WebhookData } from './webhook-body.js'

export type SampleStatus = 'open' | 'underpaid' | 'paid'

const AMOUNT = { value: 2500, currency: 'USD' }
/** USDC for 25.00 USD at the sandbox's 1:1 rate. */
const USDC_AMOUNT = 25
const RECEIVED: Record<SampleStatus, number> = { open: 0, underpaid: 10, paid: 25 }

/** A fresh payment id in the sandbox's form (pt_ and 32 hex digits), so runs never collide. */
export const samplePaymentId = (): string => `pt_${randomUUID().replaceAll('-', '')}`

/** The webhook data of the sample payment when it has reached `status`, events `now` apart by a second each. */
export function sampleWebhookData(paymentId: string, status: SampleStatus, now: number): WebhookData {
  const history: HistoryEntry[] = [{ time: now - 2000, status: 'success', description: 'Payment created' }]
  if (status !== 'open') history.push({ time: now - 1000, status: 'underpaid', description: 'Partial payment received (10 USDC)' })
  if (status === 'paid') history.push({ time: now, status: 'paid', description: 'Payment received (15 USDC)' })
  const received = RECEIVED[status]
  return {
    type: status === 'open' ? 'transaction_created' : 'transaction_updated',
    id: paymentId,
    status,
    settlement_status: 'open',
    amount: AMOUNT,
    settlement_amount: USDC_AMOUNT,
    settlement_currency: 'USDC',
    settlement_fee: 0,
    amount_paid: (AMOUNT.value * received) / USDC_AMOUNT,
    amount_received: received,
    amount_remaining: USDC_AMOUNT - received,
    history,
    metadata: { orderId: 'order-1042' },
  }
}
