// A merchant's own resources beside payments: its webhook log and event stream, and its invoices.
import { error, type CaseWriter, type Signer } from './hostile-case.js'

/** /merchants/{merchantId}/webhook-logs…: bad queries, another merchant’s log, resends and pauses with bodies. */
export function webhookLogCases({ rng, creds, add }: CaseWriter): void {
  const logs = (name: string, path: string, status: number, method = 'GET', body?: string, signer: Signer | 'unsigned' = 'direct') =>
    add({
      endpoint: 'GET /merchants/{id}/webhook-logs…',
      family: 'webhook-log',
      method,
      path,
      name: `${path.slice(0, 70)} ${name}`,
      body,
      signAs: signer === 'unsigned' ? undefined : signer,
      expect: error(status),
    })
  const mine = `/merchants/${creds.direct.id}`
  for (const query of [
    'status=lost',
    'status=SUCCESS',
    'status=',
    'limit=0',
    'limit=101',
    'page=0',
    'page=x',
    'checkout_id=',
    `checkout_id=${'c'.repeat(65)}`,
    'order=asc',
    'status=success&status=failed',
  ]) {
    logs('bad query', `${mine}/webhook-logs?${query}`, 400)
  }
  logs('unsigned', `${mine}/webhook-logs`, 401, 'GET', undefined, 'unsigned')
  logs("another merchant's log", `/merchants/${rng.hex(8)}-${rng.hex(4)}-4${rng.hex(3)}-8${rng.hex(3)}-${rng.hex(12)}/webhook-logs`, 404)
  logs('signed by the other merchant', `${mine}/webhook-logs`, 404, 'GET', undefined, 'escrow')
  for (const id of [rng.hex(8), `${rng.hex(8)}-0000-5000-8000-${rng.hex(12)}`, 'x'.repeat(3000), '%00', "'--"])
    logs('unknown entry', `${mine}/webhook-logs/${id}`, 404)
  for (const body of ['{"url":"http://evil.example"}', '[]', '"again"', '{'])
    logs('resend with a body', `${mine}/webhook-logs/${rng.hex(8)}/resend`, 400, 'POST', body)
  logs('resend of an unknown entry', `${mine}/webhook-logs/${rng.hex(8)}/resend`, 404, 'POST', '{}')
  logs('pause with a body', `${mine}/webhooks/pause`, 400, 'POST', '{"until":"tomorrow"}')
  logs('events stream with a bad cursor', `${mine}/events/stream?after=-1`, 400)
  logs('events stream, unknown parameter', `${mine}/events/stream?since=1`, 400)
}

/** /invoices…: invoices no rule allows, bad list queries and settings, unknown invoices. */
export function invoiceCases({ rng, add }: CaseWriter): void {
  const invoice = (name: string, path: string, status: number, method = 'POST', body?: string, signer: Signer | 'unsigned' = 'direct') =>
    add({
      endpoint: 'POST /invoices…',
      family: 'invoice',
      method,
      path,
      name: `${path.slice(0, 40)} ${name}`,
      body,
      signAs: signer === 'unsigned' ? undefined : signer,
      expect: error(status),
    })
  const item = { description: 'x', quantity: 1, unit_price: 100 }
  const validInvoice = { currency: 'USD', line_items: [item], customer: { email: 'a@b.co' } }
  const badInvoices: Array<[string, unknown]> = [
    ['no line items', { ...validInvoice, line_items: [] }],
    ['line items not an array', { ...validInvoice, line_items: item }],
    ['101 line items', { ...validInvoice, line_items: Array.from({ length: 101 }, () => item) }],
    ['quantity NaN text', { ...validInvoice, line_items: [{ ...item, quantity: 'NaN' }] }],
    ['quantity 1e-7', { ...validInvoice, line_items: [{ ...item, quantity: 1e-7 }] }],
    ['quantity 1e300', { ...validInvoice, line_items: [{ ...item, quantity: 1e300 }] }],
    ['unit price 1e300', { ...validInvoice, line_items: [{ ...item, unit_price: 1e300 }] }],
    ['unit price null', { ...validInvoice, line_items: [{ ...item, unit_price: null }] }],
    ['item extra field', { ...validInvoice, line_items: [{ ...item, sku: 'a' }] }],
    ['tax as text', { ...validInvoice, tax_percentage: '21' }],
    ['tax 100.00001', { ...validInvoice, tax_percentage: 100.00001 }],
    ['both customers', { ...validInvoice, customer_id: 'c' }],
    ['customer email array', { ...validInvoice, customer: { email: ['a@b.co'] } }],
    ['half an address', { ...validInvoice, customer: { email: 'a@b.co', address: { line1: 'x', city: 'y' } } }],
    ['due date garbage', { ...validInvoice, due_at: '31/12/2026' }],
    ['number empty', { ...validInvoice, invoice_number: '' }],
    ['number 65 characters', { ...validInvoice, invoice_number: 'n'.repeat(65) }],
    ['currency lowercase', { ...validInvoice, currency: 'usd' }],
    ['zero total', { ...validInvoice, line_items: [{ ...item, unit_price: 0 }] }],
  ]
  for (const [name, bad] of badInvoices) invoice(name, '/invoices', 400, 'POST', JSON.stringify(bad))
  invoice('malformed JSON', '/invoices', 400, 'POST', '{"currency":')
  invoice('unsigned', '/invoices', 401, 'POST', JSON.stringify(validInvoice), 'unsigned')
  for (const query of ['status=late', 'limit=0', 'page=-1', 'currency=USD']) invoice('bad list query', `/invoices?${query}`, 400, 'GET')
  for (const bad of [
    { invoice_prefix: 'INV#' },
    { invoice_prefix: 'p'.repeat(25) },
    { next_number: 0 },
    { next_number: 1.5 },
    { next_number: '7' },
    { prefix: 'INV-' },
    [1],
  ]) {
    invoice(`settings ${JSON.stringify(bad).slice(0, 30)}`, '/invoices/settings', 400, 'POST', JSON.stringify(bad))
  }
  for (const id of [rng.hex(8), `${rng.hex(8)}-${rng.hex(4)}-4${rng.hex(3)}-8${rng.hex(3)}-${rng.hex(12)}`, 'x'.repeat(3000)]) {
    invoice('unknown invoice', `/invoices/${id}`, 404, 'GET')
    invoice('cancel unknown invoice', `/invoices/${id}/cancel`, 404, 'POST', '{}')
  }
  invoice('cancel with a body', `/invoices/${rng.hex(8)}/cancel`, 400, 'POST', '{"reason":"x"}')
}
