// Horizon's effects of a payment: account_credited (order 1), then account_debited (order 2), paged by
// "<operation id>-<order>". Only successful transactions have effects.
import { z } from 'zod'
import type { LedgerPayment } from '../ledger/ledger-types.js'
import { cursorPoint, nowCursor, operationId, pageQuery } from './horizon-paging.js'
import { assetFields, horizonTime, type HorizonContext } from './horizon-resources.js'
import { USDC_SCALE, formatDecimal } from '../../src/money.js'

/** Horizon's effect types of a payment, with their type_i. */
const EFFECT_TYPES = { account_credited: 2, account_debited: 3 } as const

/** Where an effect sits in the ledger's history: its operation's id, and its order within it (from 1). */
export interface EffectPoint {
  operation: bigint
  order: number
}

export interface LedgerEffect {
  point: EffectPoint
  account: string
  type: keyof typeof EFFECT_TYPES
  payment: LedgerPayment
}

/** Effect cursors: "now", a paging token "<operation id>-<order>", or an operation's or transaction's token. */
export const effectCursor = z
  .string()
  .regex(/^(now|\d{1,19}(-\d{1,10})?)$/, { message: 'must be "now" or an effect paging token (<operation id>-<order>)' })

/** Effects page by their own tokens, "<operation id>-<order>". */
export const effectsPageQuery = pageQuery.extend({ cursor: effectCursor.optional() })

/** The point a cursor stands for; a plain token is before the effects of its operation. "now" needs the last position. */
export function parseEffectCursor(text: string, lastPosition: () => Promise<number>): Promise<EffectPoint> | EffectPoint {
  if (text === 'now') return lastPosition().then((last) => ({ operation: nowCursor(last), order: 1_000 }))
  const [operation, order] = text.split('-')
  return { operation: BigInt(operation!), order: order === undefined ? 0 : Number(order) }
}

export const effectToken = (point: EffectPoint): string => `${point.operation}-${point.order}`

/** An effect point as one number, for streams, which keep their cursor as a bigint. */
export const effectKey = (point: EffectPoint): bigint => (point.operation << 16n) | BigInt(point.order)
export const effectPointOf = (key: bigint): EffectPoint => ({ operation: key >> 16n, order: Number(key & 0xffffn) })

/** A payment's effects in order: the destination credited, then the source debited. */
export function effectsOf(payment: LedgerPayment): LedgerEffect[] {
  const operation = BigInt(operationId(payment.txPosition, payment.index))
  return [
    { point: { operation, order: 1 }, account: payment.to, type: 'account_credited', payment },
    { point: { operation, order: 2 }, account: payment.from, type: 'account_debited', payment },
  ]
}

export function compareEffects(a: EffectPoint, b: EffectPoint): number {
  if (a.operation !== b.operation) return a.operation < b.operation ? -1 : 1
  return a.order - b.order
}

/** The payments to read for the effects past `cursor`: from the cursor's own operation on. */
export function paymentsFrom(cursor: EffectPoint | undefined, order: 'asc' | 'desc'): { position: number; index: number } | undefined {
  if (cursor === undefined) return undefined
  const { position, index } = cursorPoint(cursor.operation)
  return { position, index: order === 'asc' ? index - 1 : index + 1 }
}

export function toEffectRecord(h: HorizonContext, effect: LedgerEffect) {
  const token = effectToken(effect.point)
  const id = `${effect.point.operation.toString().padStart(19, '0')}-${String(effect.point.order).padStart(10, '0')}`
  return {
    _links: {
      operation: { href: `${h.baseUrl}/operations/${effect.point.operation}` },
      succeeds: { href: `${h.baseUrl}/effects?order=desc&cursor=${token}` },
      precedes: { href: `${h.baseUrl}/effects?order=asc&cursor=${token}` },
    },
    id,
    paging_token: token,
    account: effect.account,
    type: effect.type,
    type_i: EFFECT_TYPES[effect.type],
    created_at: horizonTime(effect.payment.appliedAt),
    ...assetFields(h, effect.payment.asset),
    amount: formatDecimal(effect.payment.amount, USDC_SCALE),
  }
}
