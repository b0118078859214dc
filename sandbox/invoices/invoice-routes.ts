// HTTP face of invoices (spec 4.7–4.11): validates, owns the transaction, renders JSON.
import type { SandboxContext } from '../context.js'
import { merchantNowOf } from '../clock.js'
import { findCustomersByIds } from '../customers/customer-repository.js'
import type { InvoiceRow } from '../db/schema.js'
import { currentMerchant } from '../http/auth.js'
import { pageMeta } from '../http/pagination.js'
import { noBody } from '../../src/api/validation.js'
import { pageRequest } from '../validation/common.js'
import { toInvoiceResource } from './invoice-resource.js'
import { createInvoiceBody, invoiceSettingsBody, listInvoicesQuery } from '../../src/api/contract/invoices.js'
import { cancelInvoice, changeInvoiceSettings, createInvoice, getInvoice, listInvoices, readInvoiceSettings } from './invoice-service.js'
import { runTransaction } from '../db/database.js'
import type { Handlers } from '../openapi/handlers.js'

export function invoiceHandlers(ctx: SandboxContext) {
  const render = async (invoices: InvoiceRow[]) => {
    const customers = new Map(
      (
        await findCustomersByIds(
          ctx.db,
          invoices.map((i) => i.customer_id),
        )
      ).map((c) => [c.id, c]),
    )
    return invoices.map((invoice) => toInvoiceResource(invoice, customers.get(invoice.customer_id)!))
  }
  return {
    createInvoice: async (req, res) => {
      const merchant = currentMerchant(req)
      const body = createInvoiceBody.parse(req.body)
      const { invoice, customer } = await runTransaction(ctx.db, (trx) => createInvoice(ctx, trx, merchant, body))
      res.json(toInvoiceResource(invoice, customer))
    },
    listInvoices: async (req, res) => {
      const merchant = currentMerchant(req)
      const query = listInvoicesQuery.parse(req.query)
      const page = pageRequest(query)
      const { rows, total } = await listInvoices(ctx.db, merchant, { status: query.status, invoiceNumber: query.invoice_number }, page)
      res.json({ items: await render(rows), meta: pageMeta(page, total, rows.length) })
    },
    getInvoiceSettings: async (req, res) => {
      res.json(await readInvoiceSettings(ctx.db, currentMerchant(req), merchantNowOf(ctx, currentMerchant(req))))
    },
    updateInvoiceSettings: async (req, res) => {
      const merchant = currentMerchant(req)
      const body = invoiceSettingsBody.parse(req.body)
      res.json(await runTransaction(ctx.db, (trx) => changeInvoiceSettings(trx, merchant, body, merchantNowOf(ctx, merchant))))
    },
    getInvoice: async (req, res) => {
      const invoice = await getInvoice(ctx.db, currentMerchant(req), req.params.id)
      res.json((await render([invoice]))[0])
    },
    cancelInvoice: async (req, res) => {
      const merchant = currentMerchant(req)
      noBody.parse(req.body)
      const invoice = await runTransaction(ctx.db, (trx) => cancelInvoice(ctx, trx, merchant, req.params.id))
      res.json((await render([invoice]))[0])
    },
  } satisfies Partial<Handlers>
}
