// The answers several resources share (a payment, an error, the sandbox's merchants and clock, the
// webhook body) and the pieces every answer is built from (dates, amounts, pages, lists). An
// answer only one resource gives is in its file of src/api/contract/, beside its entries.
// test/e2e/openapi.test.ts checks real answers against these.
import { z } from 'zod'
import {
  ESCROW_STATUSES,
  LEDGER_ASSET_CODES,
  LOCALES,
  PAYMENT_STATUSES,
  SETTLEMENT_MODES,
  SETTLEMENT_STATUSES,
  WEBHOOK_EVENT_TYPES,
} from './enumerations.js'
import * as examples from './examples.js'

/** The example a schema carries (set with .meta), to build the examples of lists and envelopes from it. */
export const exampleOf = (schema: z.ZodType): unknown => z.globalRegistry.get(schema)?.example

export const without = (example: Record<string, unknown>, keys: string[]) =>
  Object.fromEntries(Object.entries(example).filter(([key]) => !keys.includes(key)))

export const dateTimeText = z.iso.datetime({ offset: true }).describe('ISO 8601 date-time (UTC)')

/** USDC (or XLM) as decimal text with 7 places, as on Stellar. */
export const decimalText = z
  .string()
  .regex(/^-?\d+\.\d{7}$/)
  .describe('Decimal text with 7 places')

export const accountAddress = z
  .string()
  .regex(/^G[A-Z2-7]{55}$/)
  .describe('Stellar account address (G…)')

export const txHash = z
  .string()
  .regex(/^[0-9a-f]{64}$/)
  .describe('Ledger transaction hash')

export const errorBody = z
  .object({
    statusCode: z.number().int().min(400).max(599),
    reason: z.string().describe('As in spec section 7: "Bad Request", "Unauthorized", "Signature verification failed", "Not Found", …'),
    message: z.string().describe('What exactly was wrong (which field, which header)'),
    requestId: z.string().describe("The request's id, as in its Request-Id header: find it in the request log").optional(),
  })
  .describe("Every error answer (spec 2.10), with the sandbox's precise message")
  .meta({ example: examples.errorExample })

export const money = z.object({ value: z.number().int().describe('Smallest unit of the currency'), currency: z.string() })

export const historyEntry = z.object({
  time: z.number().int().describe('Unix time in milliseconds'),
  status: z.string(),
  description: z.string(),
})

export const paymentFields = {
  id: z.string().regex(/^pt_[0-9a-f]{32}$/),
  createdAt: dateTimeText,
  updatedAt: dateTimeText,
  expiresAt: dateTimeText,
  mode: z.literal('test'),
  amount: money,
  description: z.string(),
  status: z.enum(PAYMENT_STATUSES),
  settlement_status: z.enum(SETTLEMENT_STATUSES),
  redirectUrl: z.string().optional(),
  webhookUrl: z.string().optional(),
  hostedUrl: z.string().describe('Hosted payment page, with paymentId, auth_token and lang'),
  qrCode: z.string().describe('SEP-0007 wallet payment URI'),
  merchantName: z.string(),
  cancelUrl: z.string().optional(),
  locale: z.enum(LOCALES),
  metadata: z.record(z.string(), z.unknown()),
  stellarTxId: txHash.optional(),
  settlement_stellarTxId: txHash.optional(),
  settlement_currency: z.literal('USDC'),
  settlement_amount: z.number().describe('USDC, at most 7 decimal places'),
  amount_paid: z.number().int().describe('Smallest unit of the pricing currency'),
  history: z.array(historyEntry),
  sender_account: accountAddress.optional(),
  asset_id: z.string().describe('USDC:<issuer>'),
  refunded: z.boolean(),
  type: z.literal('order'),
  storeId: z.string().optional(),
  escrow_status: z.enum(ESCROW_STATUSES).optional().describe('Escrow merchants only'),
  escrow_order_id: z.string().optional().describe('Escrow merchants only'),
  escrow_contract_address: z.string().optional().describe('Escrow merchants only'),
  escrow_platform_fee_bps: z.number().int().optional().describe('Escrow merchants only'),
}

export const payment = z
  .object({
    ...paymentFields,
    checkout_id: z.string().describe('Equals id'),
    shortUrl: z.string(),
    settlement_fee: z.number().describe('USDC, at most 7 decimal places'),
    partner_id: z.string().optional(),
  })
  .describe('A payment (spec 2.1)')
  .meta({ example: examples.paymentExample })

export const pageMeta = z.object({
  totalItems: z.number().int(),
  itemCount: z.number().int(),
  itemsPerPage: z.number().int(),
  totalPages: z.number().int(),
  currentPage: z.number().int(),
})

export const pageLinks = z.object({
  first: z.string(),
  previous: z.string().describe('"" on the first page'),
  next: z.string().describe('"" on the last page'),
  last: z.string(),
})

export const sandboxMerchant = z
  .object({
    id: z.string(),
    name: z.string(),
    apiKey: z.string(),
    apiSecret: z.string(),
    settlement_mode: z.enum(SETTLEMENT_MODES),
    account: accountAddress,
    escrow_fee_bps: z.number().int(),
  })
  .describe('A merchant with its keys, as the admin sees it')
  .meta({ example: examples.sandboxMerchantExample })

export const ledgerOperation = z.object({
  index: z.number().int(),
  type: z.literal('payment'),
  from: accountAddress,
  to: accountAddress,
  asset: z.enum(LEDGER_ASSET_CODES),
  amount: decimalText,
})

const EXAMPLE_URL = 'http://127.0.0.1:4010/payments'

/** Lists of the spec: items, meta and, for payments and refunds, links (spec 2.9). */
const page = <T extends z.ZodType>(item: T) => z.object({ items: z.array(item), meta: pageMeta })

const linkedPage = <T extends z.ZodType>(item: T) => z.object({ items: z.array(item), meta: pageMeta, links: pageLinks })

// Overloads, so that a page with links infers a type with links (the client's answers are z.infer of these).
export function pageOf<T extends z.ZodType>(item: T, withLinks: true): ReturnType<typeof linkedPage<T>>

export function pageOf<T extends z.ZodType>(item: T, withLinks: false): ReturnType<typeof page<T>>

export function pageOf<T extends z.ZodType>(item: T, withLinks: boolean) {
  const example = { items: [exampleOf(item)], meta: { totalItems: 1, itemCount: 1, itemsPerPage: 20, totalPages: 1, currentPage: 1 } }
  const links = { first: `${EXAMPLE_URL}?page=1&limit=20`, previous: '', next: '', last: `${EXAMPLE_URL}?page=1&limit=20` }
  return withLinks ? linkedPage(item).meta({ example: { ...example, links } }) : page(item).meta({ example })
}

export const itemsOf = <T extends z.ZodType>(item: T) => z.object({ items: z.array(item) }).meta({ example: { items: [exampleOf(item)] } })

export const sandboxClock = z
  .object({
    now: dateTimeText.describe('Business time'),
    advancedSeconds: z.number().int().describe('How far business time has been moved past the wall clock'),
    frozenAt: dateTimeText.optional().describe('Only while the clock is frozen'),
  })
  .meta({ example: examples.sandboxClockExample })

export const advancedClock = sandboxClock
  .extend({
    processed: z.object({
      expiredPayments: z.number().int(),
      overdueInvoices: z.number().int(),
      failedEscrows: z.number().int(),
      closedQuotes: z.number().int(),
    }),
  })
  .meta({ example: { ...examples.sandboxClockExample, advancedSeconds: 86400, processed: examples.advancedClockProcessedExample } })

/** What the sandbox POSTs to a payment's webhookUrl (spec 6). */
export const webhookBody = z
  .object({
    data: z.object({
      type: z.enum(WEBHOOK_EVENT_TYPES),
      id: z.string().describe('The payment id'),
      status: z.enum(PAYMENT_STATUSES),
      settlement_status: z.enum(SETTLEMENT_STATUSES),
      amount: money,
      settlement_amount: z.number(),
      settlement_currency: z.literal('USDC'),
      settlement_fee: z.number(),
      amount_paid: z.number().int(),
      amount_received: z.number().describe('USDC received so far'),
      amount_remaining: z.number().describe('USDC still to pay, 0 once paid in full'),
      history: z.array(historyEntry),
      metadata: z.record(z.string(), z.unknown()),
    }),
  })
  .describe('A webhook body (spec 6): the payment as it is after the event')
  .meta({ example: examples.webhookBodyExample })

/** The answers several resources share, by the component name the document gives them. */
export const sharedAnswers = {
  Error: errorBody,
  Payment: payment,
  SandboxMerchant: sandboxMerchant,
  SandboxClock: sandboxClock,
  AdvancedClock: advancedClock,
  WebhookBody: webhookBody,
}
