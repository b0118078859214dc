// Invoices, each with a linked payment the customer pays it with (spec 4.7–4.11).
import { QUERIES, REQUEST_BODIES } from '../requests.js'
import { RESPONSE_SCHEMAS } from '../resources.js'
import { endpoint } from './entry.js'

const INVOICE_ID = { id: 'Invoice id' }

export const invoices = {
  create: endpoint({
    operationId: 'createInvoice',
    method: 'post',
    path: '/invoices',
    security: 'digest',
    authReason: 'Signature verification failed',
    summary: 'Create an invoice and its payment',
    tag: 'Invoices',
    description: 'Exactly one of customer_id and customer.',
    errors: [404, 409],
    body: REQUEST_BODIES.CreateInvoiceRequest,
    response: RESPONSE_SCHEMAS.Invoice,
  }),
  /** Newest first. */
  list: endpoint({
    operationId: 'listInvoices',
    method: 'get',
    path: '/invoices',
    security: 'digest',
    authReason: 'Signature verification failed',
    summary: 'List invoices, newest first',
    tag: 'Invoices',
    errors: [],
    query: QUERIES.ListInvoicesQuery,
    response: RESPONSE_SCHEMAS.InvoicePage,
  }),
  /** The numbering prefix, the next number and a preview of the next invoice number. */
  settings: endpoint({
    operationId: 'getInvoiceSettings',
    method: 'get',
    path: '/invoices/settings',
    security: 'digest',
    authReason: 'Signature verification failed',
    summary: 'Invoice numbering',
    tag: 'Invoices',
    errors: [],
    response: RESPONSE_SCHEMAS.InvoiceSettings,
  }),
  updateSettings: endpoint({
    operationId: 'updateInvoiceSettings',
    method: 'post',
    path: '/invoices/settings',
    security: 'digest',
    authReason: 'Signature verification failed',
    summary: 'Change invoice numbering',
    tag: 'Invoices',
    errors: [],
    body: REQUEST_BODIES.InvoiceSettingsRequest,
    response: RESPONSE_SCHEMAS.InvoiceSettings,
  }),
  get: endpoint({
    operationId: 'getInvoice',
    method: 'get',
    path: '/invoices/:id',
    security: 'digest',
    authReason: 'Signature verification failed',
    summary: 'Get an invoice',
    tag: 'Invoices',
    pathParams: INVOICE_ID,
    errors: [404],
    response: RESPONSE_SCHEMAS.Invoice,
  }),
  /** Voids an unpaid invoice and expires its payment link; a paid one needs a refund instead (409). */
  cancel: endpoint({
    operationId: 'cancelInvoice',
    method: 'post',
    path: '/invoices/:id/cancel',
    security: 'digest',
    authReason: 'Signature verification failed',
    summary: 'Void an unpaid invoice',
    tag: 'Invoices',
    pathParams: INVOICE_ID,
    errors: [404, 409],
    response: RESPONSE_SCHEMAS.Invoice,
    answer: 'The voided invoice',
  }),
}
