// The Invoices view: the list with the filters of GET /invoices in the URL, each invoice's detail
// with a confirmed cancel (void), the creation form with the sandbox's running totals, and the
// numbering settings with their preview. Everything goes through the invoice services the API
// routes call; creating and voiding run once per rendered form, through the API's idempotency gate.
import { Router, type Request, type Response } from 'express'
import { html } from 'ghtml'
import { invoiceSettingsBody, listInvoicesQuery } from '../../src/api/contract/invoices.js'
import { invoiceTotals } from '../../src/invoice-totals.js'
import { findCustomersByIds } from '../customers/customer-repository.js'
import { runTransaction } from '../db/database.js'
import { badRequest } from '../errors.js'
import { pageMeta } from '../http/pagination.js'
import { idempotencyGate, requestFingerprint } from '../idempotency/idempotency-service.js'
import {
  cancelInvoice,
  changeInvoiceSettings,
  createInvoice,
  getInvoice,
  listInvoices,
  readInvoiceSettings,
} from '../invoices/invoice-service.js'
import { getPayment } from '../payments/payment-service.js'
import { hostedUrl } from '../payments/payment-resource.js'
import { pageRequest } from '../validation/common.js'
import { dashboardHref, formOf, type DashboardKit } from './dashboard-kit.js'
import { errorOnField, formIdempotencyKey, isRefusal, issuesOnFields, oneOf, type FormError } from './dashboard-forms.js'
import type { DashboardView } from './dashboard-view.js'
import { filledQuery, pager } from './list-query.js'
import {
  emptyInvoiceForm,
  invoiceFormOf,
  MAX_FORM_ROWS,
  readInvoiceForm,
  renderInvoiceForm,
  serviceError,
  type InvoiceForm,
  type InvoiceFormView,
} from './invoice-form.js'
import { invoiceFilters, invoiceSubnav, invoiceTable, renderInvoiceDetail, renderInvoiceSettings } from './invoice-pages.js'

const settingsField = oneOf(['invoice_prefix', 'next_number'])

function invoiceRoutes(kit: DashboardKit): Router {
  const router = Router()
  listRoute(router, kit)
  creationRoutes(router, kit)
  // Before /invoices/:id, which would take "settings" for an id.
  settingsRoutes(router, kit)
  detailRoutes(router, kit)
  return router
}

function listRoute(router: Router, kit: DashboardKit): void {
  const { ctx } = kit
  router.get(
    '/invoices',
    kit.handle(async (req, res) => {
      const merchant = kit.merchantOf(req)
      const raw = filledQuery(req)
      const query = listInvoicesQuery.parse(raw)
      const page = pageRequest(query)
      const { rows, total } = await listInvoices(ctx.db, merchant, { status: query.status }, page)
      const customers = new Map(
        (
          await findCustomersByIds(
            ctx.db,
            rows.map((i) => i.customer_id),
          )
        ).map((c) => [c.id, c]),
      )
      await kit.page(req, res, {
        title: 'Invoices',
        current: 'invoices',
        body: html`<h1>Invoices</h1>!${invoiceSubnav('list')}!${invoiceFilters(raw)}
<section id="invoices-list" data-live aria-label="Invoices">!${invoiceTable(rows, customers, merchant.name)}!${pager(
          '/invoices',
          raw,
          pageMeta(page, total, rows.length),
          'invoices',
        )}</section>`,
      })
    }),
  )
}

function creationRoutes(router: Router, kit: DashboardKit): void {
  const { ctx } = kit
  /** The creation form as typed, with its errors or the sandbox's totals. */
  async function formPage(req: Request, res: Response, form: InvoiceForm, extra: Partial<InvoiceFormView>, status = 200) {
    const merchant = kit.merchantOf(req)
    const { preview } = await readInvoiceSettings(ctx.db, merchant, ctx.clock.now())
    await kit.page(req, res, {
      title: 'New invoice',
      current: 'invoices',
      status,
      body: html`<h1>New invoice</h1>!${invoiceSubnav('new')}!${renderInvoiceForm({
        form,
        errors: [],
        numberPreview: preview,
        csrfField: kit.csrfField(req),
        idempotencyField: kit.idempotencyField(),
        ...extra,
      })}`,
    })
  }

  router.get(
    '/invoices/new',
    kit.handle((req, res) => formPage(req, res, emptyInvoiceForm(), {})),
  )

  // One form, three submits: "more items" adds a row, "preview totals" has the sandbox compute
  // them, "create invoice" creates it. None of them needs script.
  router.post(
    '/invoices',
    kit.handle(
      async (req, res) => {
        const merchant = kit.merchantOf(req)
        const body = formOf(req)
        const form = invoiceFormOf(body)
        if (body.intent === 'more') {
          await formPage(req, res, { ...form, rows: Math.min(form.rows + 1, MAX_FORM_ROWS) }, {})
          return
        }
        const read = readInvoiceForm(form)
        if (read.errors) {
          await formPage(req, res, form, { errors: read.errors }, 400)
          return
        }
        if (body.intent !== 'create') {
          const totals = invoiceTotals(read.body.line_items, read.body.tax_percentage)
          await formPage(req, res, form, { totals: { ...totals, currency: read.body.currency } })
          return
        }
        const key = formIdempotencyKey(body.idempotency_key)
        const fingerprint = requestFingerprint('POST', '/dashboard/invoices', form)
        let id: string
        try {
          // The API's gate: the same rendered form submitted twice creates one invoice.
          const answer = await idempotencyGate(ctx.db).run(merchant.id, key, fingerprint, ctx.clock.now(), async (trx) => {
            const { invoice } = await createInvoice(ctx, trx, merchant, read.body)
            return { status: 200, body: JSON.stringify({ id: invoice.id }) }
          })
          id = (JSON.parse(answer.body) as { id: string }).id
        } catch (error) {
          if (!isRefusal(error)) throw error
          await formPage(req, res, form, { errors: [serviceError(error.message)] }, error.statusCode)
          return
        }
        kit.seeOther(res, dashboardHref(`/invoices/${encodeURIComponent(id)}`, { done: 'created' }))
      },
      () => ({ href: dashboardHref('/invoices/new'), label: 'Back to the form' }),
    ),
  )
}

function settingsRoutes(router: Router, kit: DashboardKit): void {
  const { ctx } = kit
  async function settingsPage(
    req: Request,
    res: Response,
    extra: { errors?: FormError[]; typed?: Record<string, string>; status?: number },
  ) {
    const merchant = kit.merchantOf(req)
    const settings = await readInvoiceSettings(ctx.db, merchant, ctx.clock.now())
    await kit.page(req, res, {
      title: 'Invoice numbering',
      current: 'invoices',
      status: extra.status,
      body: renderInvoiceSettings({
        settings,
        errors: extra.errors ?? [],
        typed: extra.typed && { invoice_prefix: extra.typed.invoice_prefix ?? '', next_number: extra.typed.next_number ?? '' },
        saved: req.query.done === 'saved',
        csrfField: kit.csrfField(req),
      }),
    })
  }

  router.get(
    '/invoices/settings',
    kit.handle((req, res) => settingsPage(req, res, {})),
  )

  // Saving the same values twice is the same change: the form is idempotent by nature.
  router.post(
    '/invoices/settings',
    kit.handle(async (req, res) => {
      const merchant = kit.merchantOf(req)
      const { invoice_prefix: prefix = '', next_number: next = '' } = formOf(req)
      const typed = { invoice_prefix: prefix, next_number: next }
      const errors: FormError[] = []
      const nextNumber = /^\d{1,10}$/.test(next.trim()) ? Number(next.trim()) : undefined
      if (next.trim() !== '' && nextNumber === undefined) errors.push({ field: 'next_number', message: 'must be a whole number' })
      const parsed = invoiceSettingsBody.safeParse({ invoice_prefix: prefix, next_number: nextNumber })
      if (!parsed.success)
        errors.splice(0, errors.length, ...issuesOnFields(parsed.error, ([first]) => settingsField(String(first)), errors))
      if (errors.length === 0) {
        try {
          await runTransaction(ctx.db, (trx) => changeInvoiceSettings(trx, merchant, parsed.data, ctx.clock.now()))
        } catch (error) {
          if (!isRefusal(error)) throw error
          errors.push(errorOnField(error.message, settingsField))
          await settingsPage(req, res, { errors, typed, status: error.statusCode })
          return
        }
        kit.seeOther(res, dashboardHref('/invoices/settings', { done: 'saved' }))
        return
      }
      await settingsPage(req, res, { errors, typed, status: 400 })
    }),
  )
}

function detailRoutes(router: Router, kit: DashboardKit): void {
  const { ctx } = kit
  router.get(
    '/invoices/:id',
    kit.handle(async (req, res) => {
      const merchant = kit.merchantOf(req)
      // Another merchant's invoice is as unknown as a made-up id: 404.
      const invoice = await getInvoice(ctx.db, merchant, String(req.params.id))
      const [[customer], payment] = await Promise.all([
        findCustomersByIds(ctx.db, [invoice.customer_id]),
        getPayment(ctx.db, merchant, invoice.payment_id),
      ])
      await kit.page(req, res, {
        title: `Invoice ${invoice.invoice_number}`,
        current: 'invoices',
        // Its payment's events (paid, expired) are what change an invoice.
        liveTopic: invoice.payment_id,
        body: renderInvoiceDetail({
          invoice,
          customer,
          payment,
          checkoutUrl: hostedUrl(payment, ctx.publicUrl),
          done: typeof req.query.done === 'string' ? req.query.done : undefined,
          csrfField: kit.csrfField(req),
          idempotencyField: kit.idempotencyField(),
        }),
      })
    }),
  )

  router.post(
    '/invoices/:id/cancel',
    kit.handle(
      async (req, res) => {
        const merchant = kit.merchantOf(req)
        const id = String(req.params.id)
        const { idempotency_key: key, confirm } = formOf(req)
        // Unknown (or another merchant's) invoices are 404 before anything else is said about the form.
        const invoice = await getInvoice(ctx.db, merchant, id)
        if (confirm !== 'yes') throw badRequest(`Tick the confirmation box to void invoice ${invoice.invoice_number}; nothing was changed`)
        const fingerprint = requestFingerprint('POST', `/dashboard/invoices/${id}/cancel`, { confirm })
        await idempotencyGate(ctx.db).run(merchant.id, formIdempotencyKey(key), fingerprint, ctx.clock.now(), async (trx) => {
          await cancelInvoice(ctx, trx, merchant, id)
          return { status: 200, body: '{}' }
        })
        kit.seeOther(res, dashboardHref(`/invoices/${encodeURIComponent(id)}`, { done: 'cancelled' }))
      },
      (req) => ({ href: dashboardHref(`/invoices/${encodeURIComponent(String(req.params.id))}`), label: 'Back to the invoice' }),
    ),
  )
}

export const invoicesView: DashboardView = { id: 'invoices', title: 'Invoices', path: '/invoices', routes: invoiceRoutes }
