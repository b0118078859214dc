// The paybox library: the signed API client and webhook verification for receivers.
export { PayboxClient, type IdempotencyOptions, type PayboxClientOptions, type RequestOptions } from './client/paybox-client.js'
export { PayboxApiError, PayboxConnectionError } from './client/errors.js'
export type * from './client/types.js'
export { signDigest, signWebhook, verifyWebhook, DIGEST_HEADERS, WEBHOOK_SIGNATURE_HEADER } from './signing.js'
export { majorToMinorUnits, minorToMajorUnits } from './money.js'
export { invoiceTotals, type InvoiceTotals } from './invoice-totals.js'
