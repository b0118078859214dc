// The dashboard's Invoices and Merchants views over real HTTP: readable form errors (never a 500)
// for every malformed field, totals computed by the sandbox, creation and voiding once per
// rendered form, the numbering settings, one merchant kept from another's invoices, and the
// admin-only merchants view with its reveal and rotation.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { DashboardVisitor } from '../../harness/dashboard-visitor.js'
import { startTestSandbox, type TestSandbox } from '../../harness/sandbox.js'
import { PayboxClient } from '../../src/client/paybox-client.js'

/** A form the dashboard accepts: two items, 20% tax. */
const VALID: Record<string, string> = {
  rows: '3',
  customer_email: 'buyer@example.com',
  customer_name: 'Ada Buyer',
  currency: 'EUR',
  item_1_description: 'Widget',
  item_1_quantity: '3',
  item_1_price: '12.50',
  item_2_description: 'Gadget',
  item_2_quantity: '1.5',
  item_2_price: '0.99',
  tax_percentage: '20',
}

describe('the dashboard’s invoices and merchants over HTTP', () => {
  let sandbox: TestSandbox

  beforeAll(async () => {
    sandbox = await startTestSandbox()
  })
  afterAll(() => sandbox.stop())

  /** The new-invoice form's hidden fields, fresh: its CSRF token and its own idempotency key. */
  async function formFields(visitor: DashboardVisitor): Promise<Record<string, string>> {
    const page = await visitor.request('/dashboard/invoices/new')
    expect(page.status).toBe(200)
    return {
      csrf_token: DashboardVisitor.field(page.text, 'csrf_token'),
      idempotency_key: DashboardVisitor.field(page.text, 'idempotency_key'),
    }
  }

  const errorsOf = (text: string) => [...text.matchAll(/data-testid="form-error" data-field="([^"]*)"/g)].map((m) => m[1])

  it('names each malformed field in a readable 4xx page, and creates nothing', async () => {
    const visitor = await DashboardVisitor.admin(sandbox.url, sandbox.admin)
    const hidden = await formFields(visitor)
    const before = (await sandbox.direct.invoices.list()).meta.totalItems
    const cases: Array<[string, Record<string, string>, string[]]> = [
      ['bad quantity', { item_1_quantity: 'three' }, ['item_1_quantity']],
      ['negative quantity', { item_1_quantity: '-1' }, ['item_1_quantity']],
      ['exponent quantity', { item_1_quantity: '1e3' }, ['item_1_quantity']],
      ['hexadecimal price', { item_1_price: '0x10' }, ['item_1_price']],
      ['zero quantity', { item_2_quantity: '0' }, ['item_2_quantity']],
      ['bad price', { item_1_price: '12,50' }, ['item_1_price']],
      ['too precise price', { item_2_price: '0.999' }, ['item_2_price']],
      ['unknown currency', { currency: 'XYZ' }, ['currency']],
      ['bad tax', { tax_percentage: '120' }, ['tax_percentage']],
      ['bad email', { customer_email: 'not-an-email' }, ['customer_email']],
      ['bad due date', { due_date: 'tomorrow' }, ['due_date']],
      ['past due date', { due_date: '2001-01-01' }, ['due_date']],
      ['oversized notes', { notes: 'n'.repeat(2001) }, ['notes']],
      ['oversized description', { item_1_description: 'd'.repeat(501) }, ['item_1_description']],
      ['oversized number', { invoice_number: '9'.repeat(65) }, ['invoice_number']],
      [
        'no items',
        { item_1_description: '', item_1_quantity: '', item_1_price: '', item_2_description: '', item_2_quantity: '', item_2_price: '' },
        [''],
      ],
      ['several at once', { item_1_quantity: 'x', item_2_price: 'y', currency: 'XYZ' }, ['item_1_quantity', 'item_2_price', 'currency']],
    ]
    for (const [what, change, fields] of cases) {
      const answer = await visitor.request('/dashboard/invoices', { form: { ...VALID, ...hidden, ...change, intent: 'create' } })
      expect(answer.status, what).toBe(400)
      expect(answer.headers.get('content-type'), what).toMatch(/^text\/html/)
      expect(errorsOf(answer.text).sort(), what).toEqual([...fields].sort())
      // What was typed comes back in the form.
      expect(answer.text, what).toContain('name="customer_email"')
    }
    // A body over the dashboard's form limit is a readable 413, not a 500.
    const huge = await visitor.request('/dashboard/invoices', {
      form: { ...VALID, ...hidden, notes: 'n'.repeat(20_000), intent: 'create' },
    })
    expect(huge.status).toBe(413)
    expect(huge.headers.get('content-type')).toMatch(/^text\/html/)
    // Without the CSRF token nothing is read at all.
    const { csrf_token: _csrf, ...withoutToken } = hidden
    const forged = await visitor.request('/dashboard/invoices', { form: { ...VALID, ...withoutToken, intent: 'create' } })
    expect(forged.status).toBe(403)
    expect(forged.text).toContain('CSRF')
    expect((await sandbox.direct.invoices.list()).meta.totalItems).toBe(before)
  })

  it('previews the totals the API computes, adds rows without script, and creates once per rendered form', async () => {
    const visitor = await DashboardVisitor.admin(sandbox.url, sandbox.admin)
    const hidden = await formFields(visitor)
    const preview = await visitor.request('/dashboard/invoices', { form: { ...VALID, ...hidden, intent: 'preview' } })
    expect(preview.status).toBe(200)
    // 3 × 12.50 + 1.5 × 0.99 = 38.985 → 38.99; 20% → 7.80; the API's own figures for the same items:
    const api = await sandbox.direct.invoices.create({
      currency: 'EUR',
      customer: { email: 'buyer@example.com' },
      tax_percentage: 20,
      line_items: [
        { description: 'Widget', quantity: 3, unit_price: 1250 },
        { description: 'Gadget', quantity: 1.5, unit_price: 99 },
      ],
    })
    expect(api).toMatchObject({ subtotal: 3899, tax_total: 780, total: 4679 })
    expect(preview.text).toContain('data-testid="total-subtotal">€38.99<')
    expect(preview.text).toContain('data-testid="total-tax">€7.80<')
    expect(preview.text).toContain('data-testid="total-total">€46.79<')

    const more = await visitor.request('/dashboard/invoices', { form: { ...VALID, ...hidden, intent: 'more' } })
    expect(more.status).toBe(200)
    expect(more.text.match(/data-testid="item-row"/g)).toHaveLength(4)
    expect(more.text).toContain('value="Gadget"')

    const settings = await sandbox.direct.invoices.settings()
    const created = await visitor.request('/dashboard/invoices', { form: { ...VALID, ...hidden, intent: 'create' } })
    expect(created.status).toBe(303)
    const again = await visitor.request('/dashboard/invoices', { form: { ...VALID, ...hidden, intent: 'create' } })
    expect(again.location).toBe(created.location)
    const id = new URL(created.location!, sandbox.url).pathname.split('/').at(-1)!
    const invoice = await sandbox.direct.invoices.get(id)
    expect(invoice).toMatchObject({ invoice_number: settings.preview, total: 4679, status: 'sent' })
    // Numbers moved by one, not two.
    expect((await sandbox.direct.invoices.settings()).next_number).toBe(settings.next_number + 1)

    const detail = await visitor.request(created.location!)
    expect(detail.status).toBe(200)
    expect(detail.text).toContain(`href="/dashboard/payments/${invoice.payment_id}"`)
    expect(detail.text).toMatch(/data-testid="checkout-link">http:\/\/127\.0\.0\.1:\d+\/checkout\//)
  })

  it('voids an invoice only when confirmed, once, and lists it by its status', async () => {
    const visitor = await DashboardVisitor.admin(sandbox.url, sandbox.admin)
    const invoice = await sandbox.direct.invoices.create({
      currency: 'USD',
      customer: { email: 'x@example.com' },
      line_items: [{ description: 'Thing', quantity: 1, unit_price: 500 }],
    })
    const page = await visitor.request(`/dashboard/invoices/${invoice.id}`)
    const form = {
      csrf_token: DashboardVisitor.field(page.text, 'csrf_token'),
      idempotency_key: DashboardVisitor.field(page.text, 'idempotency_key'),
    }
    const unconfirmed = await visitor.request(`/dashboard/invoices/${invoice.id}/cancel`, { form })
    expect(unconfirmed.status).toBe(400)
    expect(unconfirmed.text).toContain('Tick the confirmation box')
    expect((await sandbox.direct.invoices.get(invoice.id)).status).toBe('sent')

    const voided = await visitor.request(`/dashboard/invoices/${invoice.id}/cancel`, { form: { ...form, confirm: 'yes' } })
    expect(voided.status).toBe(303)
    // The same form again is the same answer, not a 409.
    expect((await visitor.request(`/dashboard/invoices/${invoice.id}/cancel`, { form: { ...form, confirm: 'yes' } })).status).toBe(303)
    expect((await sandbox.direct.invoices.get(invoice.id)).status).toBe('voided')
    expect((await sandbox.direct.payments.get(invoice.payment_id)).status).toBe('expired')

    const list = await visitor.request('/dashboard/invoices?status=voided')
    expect(list.status).toBe(200)
    expect(list.text).toContain(`data-invoice-id="${invoice.id}"`)
    expect(list.text).not.toMatch(/data-status="sent"/)
    // Paging keeps the filters: page 2 of one-invoice pages links back to page 1 with the same status.
    const second = await visitor.request('/dashboard/invoices?status=sent&limit=1&page=2')
    expect(second.status).toBe(200)
    expect(second.text.match(/data-testid="invoice-row"/g)).toHaveLength(1)
    const previous = /href="([^"]+)" rel="prev"/
      .exec(second.text)![1]!
      .replace(/&#(\d+);/g, (_, code: string) => String.fromCharCode(Number(code)))
    expect(Object.fromEntries(new URL(previous, sandbox.url).searchParams)).toEqual({ status: 'sent', limit: '1', page: '1' })
    for (const bad of ['?status=bogus', '?page=0', '?limit=100000', '?unknown=1']) {
      const answer = await visitor.request(`/dashboard/invoices${bad}`)
      expect(answer.status, bad).toBe(400)
      expect(answer.headers.get('content-type'), bad).toMatch(/^text\/html/)
    }
  })

  it('changes the numbering with readable errors, and the preview follows', async () => {
    const visitor = await DashboardVisitor.admin(sandbox.url, sandbox.admin)
    const page = await visitor.request('/dashboard/invoices/settings')
    const csrf_token = DashboardVisitor.field(page.text, 'csrf_token')
    const { next_number } = await sandbox.direct.invoices.settings()
    const cases: Array<[Record<string, string>, string]> = [
      [{ invoice_prefix: 'INV-', next_number: 'abc' }, 'next_number'],
      [{ invoice_prefix: 'INV-', next_number: '0' }, 'next_number'],
      [{ invoice_prefix: 'INV-', next_number: String(next_number - 1) }, 'next_number'],
      [{ invoice_prefix: '<b>', next_number: String(next_number) }, 'invoice_prefix'],
      [{ invoice_prefix: 'P'.repeat(25), next_number: String(next_number) }, 'invoice_prefix'],
    ]
    for (const [form, field] of cases) {
      const answer = await visitor.request('/dashboard/invoices/settings', { form: { ...form, csrf_token } })
      expect(answer.status, JSON.stringify(form)).toBe(400)
      expect(errorsOf(answer.text), JSON.stringify(form)).toEqual([field])
    }
    const saved = await visitor.request('/dashboard/invoices/settings', {
      form: { csrf_token, invoice_prefix: 'ACME-{year}-', next_number: '500' },
    })
    expect(saved.status).toBe(303)
    const year = new Date(sandbox.context.clock.now()).getUTCFullYear()
    expect((await visitor.request(saved.location!)).text).toContain(`data-testid="number-preview">ACME-${year}-0500<`)
  })

  it('keeps one merchant’s invoices from another’s session (404), reading and voiding', async () => {
    const invoice = await sandbox.direct.invoices.create({
      currency: 'EUR',
      customer: { email: 'private@example.com', name: 'Private Person' },
      line_items: [{ description: 'Acme only', quantity: 1, unit_price: 100 }],
    })
    const other = await DashboardVisitor.merchant(sandbox.url, sandbox.merchants[1]!)
    const shown = await other.request(`/dashboard/invoices/${invoice.id}`)
    expect(shown.status).toBe(404)
    expect(shown.text).not.toContain('Private Person')
    expect((await other.request('/dashboard/invoices')).text).not.toContain(invoice.id)
    const csrf_token = DashboardVisitor.field((await other.request('/dashboard/invoices')).text, 'csrf_token')
    const cancel = await other.request(`/dashboard/invoices/${invoice.id}/cancel`, {
      form: { csrf_token, idempotency_key: 'k1', confirm: 'yes' },
    })
    expect(cancel.status).toBe(404)
    expect((await sandbox.direct.invoices.get(invoice.id)).status).toBe('sent')
  })

  it('shows merchants to admins only; creates them, reveals a secret on a POST, and rotates it once per form', async () => {
    const merchant = await DashboardVisitor.merchant(sandbox.url, sandbox.merchants[0]!)
    const merchantPage = await merchant.request('/dashboard/invoices')
    expect(merchantPage.text).not.toContain('data-testid="nav-merchants"')
    expect((await merchant.request('/dashboard/merchants')).status).toBe(404)
    const merchantCsrf = DashboardVisitor.field(merchantPage.text, 'csrf_token')
    const revealByMerchant = await merchant.request(`/dashboard/merchants/${sandbox.merchants[1]!.id}/reveal`, {
      form: { csrf_token: merchantCsrf },
    })
    expect(revealByMerchant.status).toBe(404)
    expect(revealByMerchant.text).not.toContain(sandbox.merchants[1]!.apiSecret)

    const admin = await DashboardVisitor.admin(sandbox.url, sandbox.admin)
    const list = await admin.request('/dashboard/merchants')
    expect(list.status).toBe(200)
    expect(list.text).toContain('data-testid="nav-merchants"')
    for (const m of sandbox.merchants) {
      expect(list.text).toContain(m.apiKey)
      expect(list.text).not.toContain(m.apiSecret)
    }
    const csrf_token = DashboardVisitor.field(list.text, 'csrf_token')
    const key = () => DashboardVisitor.field(list.text, 'idempotency_key')
    const refusals: Array<[Record<string, string>, string]> = [
      [{ name: '', settlement_mode: 'direct' }, 'name'],
      [{ name: 'x'.repeat(201), settlement_mode: 'direct' }, 'name'],
      [{ name: 'Shop', settlement_mode: 'barter' }, 'settlement_mode'],
      [{ name: 'Shop', settlement_mode: 'escrow', escrow_fee_bps: 'lots' }, 'escrow_fee_bps'],
      [{ name: 'Shop', settlement_mode: 'escrow', escrow_fee_bps: '10001' }, 'escrow_fee_bps'],
      [{ name: 'Shop', settlement_mode: 'direct', escrow_fee_bps: '10' }, 'escrow_fee_bps'],
    ]
    const count = async () => (await sandbox.admin.sandbox.merchants()).items.length
    const before = await count()
    for (const [form, field] of refusals) {
      const answer = await admin.request('/dashboard/merchants', { form: { ...form, csrf_token, idempotency_key: key() } })
      expect(answer.status, JSON.stringify(form)).toBe(400)
      expect(errorsOf(answer.text), JSON.stringify(form)).toEqual([field])
    }
    const form = { name: 'Dashboard Shop', settlement_mode: 'escrow', escrow_fee_bps: '120', csrf_token, idempotency_key: key() }
    const created = await admin.request('/dashboard/merchants', { form })
    expect(created.status).toBe(303)
    expect((await admin.request('/dashboard/merchants', { form })).location).toBe(created.location)
    expect(await count()).toBe(before + 1)
    const id = new URL(created.location!, sandbox.url).searchParams.get('created')!
    const shop = (await sandbox.admin.sandbox.merchants()).items.find((m) => m.id === id)!
    expect(shop).toMatchObject({ name: 'Dashboard Shop', settlement_mode: 'escrow', escrow_fee_bps: 120 })

    const revealed = await admin.request(`/dashboard/merchants/${id}/reveal`, { form: { csrf_token } })
    expect(revealed.status).toBe(200)
    expect(revealed.headers.get('cache-control')).toBe('no-store')
    expect(revealed.text).toContain(`data-testid="revealed-secret">${shop.apiSecret}<`)
    expect((await admin.request(`/dashboard/merchants/${id}/reveal`, { form: {} })).status).toBe(403)

    const rotateKey = 'rotate-once'
    expect((await admin.request(`/dashboard/merchants/${id}/rotate`, { form: { csrf_token, idempotency_key: rotateKey } })).status).toBe(
      400,
    )
    const rotated = await admin.request(`/dashboard/merchants/${id}/rotate`, {
      form: { csrf_token, idempotency_key: rotateKey, confirm: 'yes' },
    })
    expect(rotated.status).toBe(200)
    const secret = /data-testid="revealed-secret">([^<]+)</.exec(rotated.text)![1]!
    expect(secret).not.toBe(shop.apiSecret)
    // The old secret no longer signs; the new one does; the same form again rotates nothing more.
    const client = (apiSecret: string) => new PayboxClient({ baseUrl: sandbox.url, apiKey: shop.apiKey, apiSecret })
    await expect(client(shop.apiSecret).invoices.list()).rejects.toThrow()
    expect((await client(secret).invoices.list()).items).toEqual([])
    const replay = await admin.request(`/dashboard/merchants/${id}/rotate`, {
      form: { csrf_token, idempotency_key: rotateKey, confirm: 'yes' },
    })
    expect(/data-testid="revealed-secret">([^<]+)</.exec(replay.text)![1]).toBe(secret)
    // The list never shows it again.
    expect((await admin.request('/dashboard/merchants')).text).not.toContain(secret)
  })
})
