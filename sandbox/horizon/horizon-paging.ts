// Horizon's paging: cursor/order/limit query values, the TOID-like ids that are both record ids
// and paging tokens, and the self/next/prev links of a page of records.
import { z } from 'zod'
import { queryInteger } from '../../src/api/validation.js'

export const DEFAULT_LIMIT = 10
export const MAX_LIMIT = 200

// TOID-like ids from the transaction's position (application order) rather than its ledger: a
// transaction is position << 12 and its operation i that | (i + 1), so operations sort after it, as on Horizon.
const OPERATION_BITS = 12n
const INT64_MAX = 2n ** 63n - 1n

export const transactionToken = (position: number): string => (BigInt(position) << OPERATION_BITS).toString()

export const operationId = (position: number, index: number): string =>
  ((BigInt(position) << OPERATION_BITS) | BigInt(index + 1)).toString()

/** The (position, index) a cursor or operation id stands for; index -1 is the transaction itself. */
export function cursorPoint(cursor: bigint): { position: number; index: number } {
  return { position: Number(cursor >> OPERATION_BITS), index: Number(cursor & ((1n << OPERATION_BITS) - 1n)) - 1 }
}

/** A cursor of a transaction list as the position it pages after, in the given order. */
export function transactionCursorPosition(cursor: bigint, order: 'asc' | 'desc'): number {
  const { position, index } = cursorPoint(cursor)
  // Descending, a cursor inside transaction p (one of its operations) still includes p.
  return order === 'desc' && index >= 0 ? position + 1 : position
}

/** Query parameters the SDK's stream() adds to every URL; Horizon ignores them, and so does the sandbox. */
const SDK_MARKERS = {
  'X-Client-Name': z.string().max(100).optional(),
  'X-Client-Version': z.string().max(100).optional(),
  'X-App-Name': z.string().max(100).optional(),
  'X-App-Version': z.string().max(100).optional(),
}

/** The query of a single record: nothing but the SDK's markers. */
export const recordQuery = z.strictObject(SDK_MARKERS)

/** cursor=now: past every record there is (all operations of the last transaction), before the next transaction's. */
export const nowCursor = (lastPosition: number): bigint => ((BigInt(lastPosition) + 1n) << OPERATION_BITS) - 1n

const cursorText = z
  .string()
  .regex(/^(now|\d{1,19})$/, { message: 'must be "now" or a paging token (a whole number)', abort: true })
  .refine((text) => text === 'now' || BigInt(text) <= INT64_MAX, { message: 'is past the largest paging token' })

export const pageQuery = z.strictObject({
  cursor: cursorText.optional(),
  order: z.enum(['asc', 'desc'], { message: 'must be asc or desc' }).optional(),
  limit: queryInteger(1, MAX_LIMIT).optional(),
  // Transactions included as failed, and their operations, are listed only when asked for.
  include_failed: z.enum(['true', 'false'], { message: 'must be true or false' }).optional(),
  // Payments and operations embed their transaction's record on request, as on Horizon.
  join: z.enum(['transactions'], { message: 'must be transactions' }).optional(),
  ...SDK_MARKERS,
})

export interface PageRequest {
  /** A paging token, "now", or undefined (from the start in the order asked for). */
  cursor: string | undefined
  order: 'asc' | 'desc'
  limit: number
  includeFailed: boolean
  /** join=transactions: each operation carries its transaction's record. */
  joinTransactions: boolean
}

export function pageRequest(query: unknown, schema: z.ZodType<z.infer<typeof pageQuery>> = pageQuery): PageRequest {
  const parsed = schema.parse(query)
  return {
    cursor: parsed.cursor,
    order: parsed.order ?? 'asc',
    limit: parsed.limit ?? DEFAULT_LIMIT,
    includeFailed: parsed.include_failed === 'true',
    joinTransactions: parsed.join === 'transactions',
  }
}

/** A page as Horizon sends it: `_embedded.records`, and links to itself and the pages either side. */
export function pageOf<T extends { paging_token: string }>(href: string, request: PageRequest, records: T[]) {
  // An empty page asked without a cursor has none to give on: its links start from the beginning again.
  const link = (cursor: string, order: 'asc' | 'desc') => ({
    href: `${href}?${new URLSearchParams({ ...(cursor === '' ? {} : { cursor }), limit: String(request.limit), order }).toString()}`,
  })
  const first = records[0]?.paging_token ?? request.cursor ?? ''
  const last = records.at(-1)?.paging_token ?? request.cursor ?? ''
  const reverse = request.order === 'asc' ? 'desc' : 'asc'
  return {
    _links: { self: link(request.cursor ?? '', request.order), next: link(last, request.order), prev: link(first, reverse) },
    _embedded: { records },
  }
}
