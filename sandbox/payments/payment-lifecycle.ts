// The payment state machines (docs/payment-lifecycle.md), pure: whether a move is allowed and what the
// row becomes. Services persist it with PaymentChanges; nothing else changes a payment's status.
import type { HistoryEntry } from '../../src/client/types.js'
import type { PaymentRow } from '../db/schema.js'
import { toIso } from '../clock.js'
import { conflict } from '../errors.js'
import { PAYABLE_STATUSES, type PaymentStatus, type SettlementStatus } from '../../src/api/enumerations.js'

export type { HistoryEntry }

/** Where each status may go next. paid, expired, failed and canceled are final. */
export const PAYMENT_TRANSITIONS: Readonly<Record<PaymentStatus, readonly PaymentStatus[]>> = {
  open: ['underpaid', 'paid', 'expired', 'failed', 'canceled'],
  underpaid: ['paid', 'failed', 'expired', 'canceled'],
  paid: [],
  expired: [],
  failed: [],
  canceled: [],
}

/** Settlement starts when a payment is paid; paid (settled) and failed are final. */
export const SETTLEMENT_TRANSITIONS: Readonly<Record<SettlementStatus, readonly SettlementStatus[]>> = {
  open: ['processing', 'failed'],
  processing: ['paid', 'failed'],
  paid: [],
  failed: [],
}

/** How settlement moves are written in history, next to the payment statuses. */
const SETTLEMENT_HISTORY_STATUS: Record<SettlementStatus, string> = {
  open: 'settlement_open',
  processing: 'settlement_processing',
  paid: 'settled',
  failed: 'settlement_failed',
}

/** Expired once expiresAt has passed, whether or not the sweep recorded it yet: whatever takes money asks this. */
export function statusAt(payment: Pick<PaymentRow, 'status' | 'expires_at'>, now: number): PaymentStatus {
  return payment.status === 'open' && payment.expires_at <= now ? 'expired' : payment.status
}

/** Whether the payment can take money now: open and not past its expiry, or underpaid. */
export const isPayable = (payment: Pick<PaymentRow, 'status' | 'expires_at'>, now: number): boolean =>
  (PAYABLE_STATUSES as readonly PaymentStatus[]).includes(statusAt(payment, now))

/** 409 unless the payment can take money now (isPayable). */
export function requirePayable(payment: PaymentRow, now: number): void {
  if (isPayable(payment, now)) return
  const status = statusAt(payment, now)
  if (status !== payment.status)
    throw conflict('Conflict', `Payment ${payment.id} expired at ${toIso(payment.expires_at)} and cannot be paid`)
  throw conflict('Conflict', `Payment ${payment.id} is ${payment.status} and cannot be paid`)
}

export function canMove(from: PaymentStatus, to: PaymentStatus): boolean {
  return PAYMENT_TRANSITIONS[from].includes(to)
}

export interface StatusChange {
  status: PaymentStatus
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

/** The row fields after settlement moves to `to`, recorded in history; 409 if not allowed. */
export function moveSettlementTo(
  payment: PaymentRow,
  to: SettlementStatus,
  description: string,
  now: number,
): { settlement_status: SettlementStatus; history: string; updated_at: number } {
  if (!SETTLEMENT_TRANSITIONS[payment.settlement_status].includes(to)) {
    throw conflict('Conflict', `The settlement of payment ${payment.id} is ${payment.settlement_status} and cannot become ${to}`)
  }
  const entry = { time: now, status: SETTLEMENT_HISTORY_STATUS[to], description }
  return { settlement_status: to, history: appendHistory(payment.history, entry), updated_at: now }
}

/** When the payment's settlement last became `status`, from its history (undefined if it never did). */
export function settlementMovedAt(payment: Pick<PaymentRow, 'history'>, status: SettlementStatus): number | undefined {
  const history = JSON.parse(payment.history) as HistoryEntry[]
  return history.findLast((entry) => entry.status === SETTLEMENT_HISTORY_STATUS[status])?.time
}

export function appendHistory(historyJson: string, entry: HistoryEntry): string {
  const history = JSON.parse(historyJson) as HistoryEntry[]
  history.push(entry)
  return JSON.stringify(history)
}
