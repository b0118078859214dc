// What the crash-safety and two-process tests check about a sandbox's state, over HTTP and in its
// database file.
import { systemClock } from '../sandbox/clock.js'
import { inOneSnapshot, openDatabase } from '../sandbox/db/database.js'
import type { WebhookDeliveriesTable } from '../sandbox/db/schema.js'
import { LedgerService } from '../sandbox/ledger/ledger-service.js'
import type { SupplyReport } from '../sandbox/ledger/ledger-types.js'
import { rawRequest, type RawResponse } from './sandbox.js'

export interface Merchant {
  id: string
  apiKey: string
  apiSecret: string
}

/** A request signed by `as`, which rejects only when no answer came at all. */
export function signed(
  baseUrl: string,
  as: Merchant,
  method: string,
  path: string,
  body?: unknown,
  headers: Record<string, string> = {},
): Promise<RawResponse> {
  return rawRequest(baseUrl, { method, path, as, headers, body: body === undefined ? undefined : JSON.stringify(body) })
}

/** A request with the admin token of the sandbox whose `--json` banner is given. */
export function adminRequest(
  to: { banner: { baseUrl: string; adminToken: string } },
  method: string,
  path: string,
  body?: unknown,
): Promise<RawResponse> {
  return rawRequest(to.banner.baseUrl, {
    method,
    path,
    headers: { 'x-sandbox-admin-token': to.banner.adminToken },
    body: body === undefined ? undefined : JSON.stringify(body),
  })
}

async function allPages<T>(baseUrl: string, as: Merchant, path: string): Promise<T[]> {
  const items: T[] = []
  for (let page = 1; ; page++) {
    const response = await signed(baseUrl, as, 'GET', `${path}?limit=100&page=${page}`)
    if (response.status !== 200) throw new Error(`GET ${path} page ${page}: ${response.status} ${response.text.slice(0, 200)}`)
    const { items: pageItems } = response.json as { items: T[] }
    items.push(...pageItems)
    if (pageItems.length < 100) return items
  }
}

export interface PaymentView {
  id: string
  status: string
  metadata: Record<string, unknown>
}

/** Every payment of the merchant, grouped by the `key` its metadata carries (the tests put their idempotency key there). */
export async function paymentsByKey(baseUrl: string, as: Merchant): Promise<Map<string, PaymentView[]>> {
  const byKey = new Map<string, PaymentView[]>()
  for (const payment of await allPages<PaymentView>(baseUrl, as, '/payments')) {
    const key = payment.metadata.key
    if (typeof key === 'string') byKey.set(key, [...(byKey.get(key) ?? []), payment])
  }
  return byKey
}

export interface InvoiceView {
  id: string
  invoice_number: string
}

export const listInvoices = (baseUrl: string, as: Merchant) => allPages<InvoiceView>(baseUrl, as, '/invoices')

/** What is wrong with a set of generated numbers (INV-0001, …): duplicates and gaps, or []. */
export function numberingProblems(numbers: readonly string[], prefix = 'INV-'): string[] {
  const counters = numbers
    .map((number) => (number.startsWith(prefix) ? Number(number.slice(prefix.length)) : Number.NaN))
    .sort((a, b) => a - b)
  const problems: string[] = []
  counters.forEach((counter, i) => {
    if (counter !== i + 1)
      problems.push(`position ${i + 1} holds ${Number.isNaN(counter) ? 'a number without the prefix' : `${prefix}${counter}`}`)
  })
  return problems.slice(0, 10)
}

/** No sandbox needs to run; the ledger's invariants are checked in one snapshot. */
export async function inspectDatabaseFile(file: string): Promise<{ supply: SupplyReport; deliveries: WebhookDeliveriesTable[] }> {
  const db = await openDatabase({ file })
  try {
    const ledger = new LedgerService({ clock: systemClock })
    return await inOneSnapshot(db, async (trx) => ({
      supply: await ledger.checkInvariants(trx),
      deliveries: await trx.selectFrom('webhook_deliveries').selectAll().orderBy('sequence').execute(),
    }))
  } finally {
    await db.destroy()
  }
}
