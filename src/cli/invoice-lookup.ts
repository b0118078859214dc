// An invoice named the way a user names it: by its id (what the API's path takes), else by its
// number, which the sandbox looks up (GET /invoices?invoice_number=; numbers are unique per merchant).
import { PayboxApiError } from '../client/errors.js'
import type { PayboxClient } from '../client/paybox-client.js'
import type { Invoice } from '../client/types.js'

export async function findInvoice(client: PayboxClient, idOrNumber: string): Promise<Invoice> {
  let notFound: PayboxApiError
  try {
    return await client.invoices.get(idOrNumber)
  } catch (error) {
    if (!(error instanceof PayboxApiError) || error.statusCode !== 404) throw error
    notFound = error
  }
  const [invoice] = (await client.invoices.list({ invoice_number: idOrNumber, limit: 1 })).items
  if (invoice) return invoice
  // Still the API's 404 (for --json), saying both what was looked for and where to find the right one.
  const { statusCode, reason, body, retryAfterSeconds, requestId } = notFound
  const message = `No invoice with id or number ${idOrNumber} (see: paybox invoices list)`
  throw new PayboxApiError(statusCode, reason, message, body, retryAfterSeconds, requestId)
}
