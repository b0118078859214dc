// The payment state machine (docs/payment-lifecycle.md). Pure: given a payment row and what
// happened, it says whether the move is allowed and what the row becomes. Services persist the
// result; nothing else changes a payment's status.
import type { PaymentRow } from '../db/schema.js'
import { conflict } from '../http/errors.js'
import type { PaymentStatus } from './payment-schemas.js'
import type { HistoryEntry } from './payment-service.js'

/** Where each status may go next. paid, expired, failed and canceled are final. */
export const PAYMENT_TRANSITIONS: Readonly<Record<PaymentStatus, readonly PaymentStatus[]>> = {
  open: ['underpaid', 'paid', 'expired', 'failed', 'canceled'],
  underpaid: ['paid', 'failed', 'expired'],
  paid: [],
  expired: [],
  failed: [],
  canceled: [],
}

export function canMove(from: string, to: PaymentStatus): boolean {
  return (PAYMENT_TRANSITIONS[from as PaymentStatus] ?? []).includes(to)
}

export interface StatusChange {
  status: string
  history: string
  updated_at: number
}

/** The row fields after moving to `to`, with the move recorded in history; 409 if not allowed. */
export function moveTo(payment: PaymentRow, to: PaymentStatus, description: string, now: number): StatusChange {
  if (!canMove(payment.status, to)) {
    throw conflict('Conflict', `Payment ${payment.id} is ${payment.status} and cannot become ${to}`)
  }
  return { status: to, history: appendHistory(payment.history, { time: now, status: to, description }), updated_at: now }
}

export function appendHistory(historyJson: string, entry: HistoryEntry): string {
  const history = JSON.parse(historyJson) as HistoryEntry[]
  history.push(entry)
  return JSON.stringify(history)
}
