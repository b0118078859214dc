// The bridge order's state machine (docs/bridge.md), modelled on NEAR Intents' 1Click:
// PENDING_DEPOSIT → (INCOMPLETE_DEPOSIT →) KNOWN_DEPOSIT_TX → PROCESSING → SUCCESS, or REFUNDED,
// FAILED, EXPIRED. Pure: it decides what a deposit, the deadline or a newer quote does to an
// order; quote-service.ts moves the money and writes the rows.
import type { BridgeOrderStatus } from '../../src/client/types.js'

/** Statuses in which an order still takes deposits. */
export const LIVE_STATUSES: readonly BridgeOrderStatus[] = ['PENDING_DEPOSIT', 'INCOMPLETE_DEPOSIT']

export interface OrderState {
  status: BridgeOrderStatus
  /** Base units of the origin token the quote asks for. */
  amountIn: bigint
  /** Base units deposited and held so far (not refunded, not swapped). */
  held: bigint
  expiresAt: number
  supersededBy: string | null
}

export type DepositDecision =
  /** Held, not swapped: the order waits for the rest until its deadline. */
  | { kind: 'hold'; status: 'INCOMPLETE_DEPOSIT'; held: bigint }
  /** The quoted amount is in: swap it; `surplus` beyond it goes back to the refund address. */
  | { kind: 'swap'; surplus: bigint }
  /** Everything held and this deposit go back to the refund address. */
  | { kind: 'refund'; status: BridgeOrderStatus; refund: bigint; reason: string }

export const isLive = (order: Pick<OrderState, 'status' | 'expiresAt' | 'supersededBy'>, now: number): boolean =>
  LIVE_STATUSES.includes(order.status) && order.expiresAt > now && order.supersededBy === null

/**
 * What a deposit of `sent` base units does. `payable`: the payment still takes money;
 * `fail`: the simulated bridge fails this order (its deposits are refunded).
 */
export function decideDeposit(order: OrderState, sent: bigint, now: number, options: { payable: boolean; fail: boolean }): DepositDecision {
  const refundAll = (status: BridgeOrderStatus, reason: string): DepositDecision => ({
    kind: 'refund',
    status,
    refund: order.held + sent,
    reason,
  })
  // A finished order keeps its status; only what arrives late goes back.
  const closed = LIVE_STATUSES.includes(order.status) || order.status === 'EXPIRED' ? 'REFUNDED' : order.status
  if (order.supersededBy !== null) return refundAll(closed, `the quote was superseded by ${order.supersededBy}`)
  if (!LIVE_STATUSES.includes(order.status)) return refundAll(closed, `the order is ${order.status}`)
  if (order.expiresAt <= now) return refundAll('REFUNDED', 'the deposit arrived after the deadline')
  if (!options.payable) return refundAll('REFUNDED', 'the payment no longer takes payments')
  if (options.fail) return refundAll('FAILED', 'the bridge failed (simulated)')
  const total = order.held + sent
  if (total < order.amountIn) return { kind: 'hold', status: 'INCOMPLETE_DEPOSIT', held: total }
  return { kind: 'swap', surplus: total - order.amountIn }
}

/**
 * What the deadline or a newer quote does to a live order: one with nothing deposited expires,
 * one holding an incomplete deposit refunds it.
 */
export function decideClose(order: OrderState): { status: BridgeOrderStatus; refund: bigint } {
  return order.held > 0n ? { status: 'REFUNDED', refund: order.held } : { status: 'EXPIRED', refund: 0n }
}
