// The scenario file format, defined once: the loader validates with these zod schemas, and
// scenarios/scenario.schema.json is generated from them (npm run scenario:schema).
import { z } from 'zod'
import { CUSTOMER_TYPES, LEDGER_ASSET_CODES, LOCALES, SETTLEMENT_MODES, WEBHOOK_EVENT_TYPES } from '../api/enumerations.js'

/** Published in the JSON Schema; editors find the file through a relative `$schema` instead. */
export const SCENARIO_SCHEMA_ID = 'urn:paybox:scenario:1'

/** A reference to an earlier result, `${steps.<id>.<path>}`, standing for the whole value. */
const REFERENCE = /^\$\{[^}]+\}$/
/** What `ms` reads: 500ms, 10s, 31m, 2h, 7d, 1w. */
const DURATION = /^\d+(?:\.\d+)?(?:ms|s|m|h|d|w)$/
const STEP_ID = /^[A-Za-z_][A-Za-z0-9_-]*$/

const reference = z.string().regex(REFERENCE, { message: 'must be a number or a ${…} reference' })
/** A value of `schema`, or a reference resolved when the step runs (the API then checks it). */
const orReference = <T extends z.ZodType>(schema: T) => z.union([schema, reference])

const text = z.string().min(1, { message: 'must not be empty' })
const isRegExp = (source: string): boolean => {
  try {
    return new RegExp(source) instanceof RegExp
  } catch {
    return false
  }
}
const pattern = z.string().refine(isRegExp, { message: 'must be a valid regular expression' })
const smallestUnits = orReference(z.number().int({ message: 'must be an integer' })).describe(
  'Smallest units of the pricing currency (1250 = 12.50 USD), or a ${…} reference',
)
const duration = z.string().regex(DURATION, { message: 'must be a duration such as 500ms, 10s, 31m, 2h or 7d' })
const paymentRef = text.describe('A payment id (pt_…), usually ${steps.<id>.id}')
const invoiceRef = text.describe('An invoice id, usually ${steps.<id>.id}')
const metadata = z.record(z.string(), z.unknown()).describe('Free-form metadata, stored with the resource')

const createPayment = z
  .strictObject({
    amount: z.strictObject({ value: smallestUnits, currency: text.describe('ISO 4217 pricing currency: USD, EUR, …') }),
    description: text,
    webhookUrl: text.describe("Where the payment's webhooks go; ${receiver.url} is the runner's own receiver").optional(),
    redirectUrl: text.optional(),
    cancelUrl: text.optional(),
    name: text.optional(),
    locale: z.enum(LOCALES).optional(),
    metadata: metadata.optional(),
    expiresInHours: orReference(z.number().positive()).optional(),
    storeId: text.optional(),
    partnerId: text.optional(),
    escrowPayee: text.describe("Escrow merchants: who the release pays (G…); default the merchant's account").optional(),
    escrowPlatformFee: orReference(z.number().int().min(0).max(10_000)).describe('Escrow merchants: platform fee, basis points').optional(),
    escrowExpiresAt: text.optional(),
    idempotencyKey: text.describe('Sent as the Idempotency-Key header').optional(),
  })
  .describe('POST /payments: returns the payment')

const paymentOnly = z.strictObject({ payment: paymentRef })

const refund = z
  .strictObject({
    payment: paymentRef,
    amount: smallestUnits.describe('Smallest units of the pricing currency; default everything still refundable').optional(),
    description: text.optional(),
    metadata: metadata.optional(),
  })
  .describe('POST /payments/{id}/refunds: returns the refund')

const lineItem = z.strictObject({
  description: text,
  quantity: orReference(z.number().positive()),
  unit_price: smallestUnits,
})

const createInvoice = z
  .strictObject({
    currency: text,
    line_items: z.array(lineItem).min(1),
    tax_percentage: orReference(z.number().min(0).max(100)).optional(),
    customer: z
      .strictObject({
        email: text,
        customer_type: z.enum(CUSTOMER_TYPES).optional(),
        name: text.optional(),
        company_name: text.optional(),
        vat_number: text.optional(),
        address: z.strictObject({ line1: text, postal_code: text, city: text, country: text }).optional(),
      })
      .optional(),
    customer_id: text.optional(),
    due_at: text.describe('ISO 8601 date-time with an offset, in the future').optional(),
    dueIn: duration.describe("Due this long after the sandbox's business time now (instead of due_at): 30d, 2h").optional(),
    notes: z.string().optional(),
    invoice_number: text.optional(),
  })
  .refine((body) => body.due_at === undefined || body.dueIn === undefined, { message: 'give due_at or dueIn, not both', path: ['dueIn'] })
  .describe('POST /invoices: returns the invoice (its payment is payment_id)')

const invoiceOnly = z.strictObject({ invoice: invoiceRef })

const invoiceSettings = z
  .strictObject({
    invoice_prefix: z.string().optional(),
    next_number: orReference(z.number().int().min(1)).optional(),
  })
  .describe('POST /invoices/settings: returns the numbering settings')

const withReason = z.strictObject({ payment: paymentRef, reason: text.optional() })

const crossChainQuote = z
  .strictObject({ payment: paymentRef, originChain: text, originToken: text, refundAddress: text })
  .describe('POST /payments/{id}/cross-chain/quote: returns the quote')

const crossChainDeposit = z
  .strictObject({
    quote: text.describe('A quote id, usually ${steps.<id>.quoteId}'),
    amountIn: z.string().describe('Origin-token amount deposited, decimal text; default what the order still lacks').optional(),
    fail: z.boolean().describe('The simulated bridge fails the order: its deposits are refunded').optional(),
  })
  .describe('POST /sandbox/cross-chain/quotes/{id}/deposit: returns {quote, payment}')

const crossChainStatus = z
  .strictObject({ quote: text.describe('A quote id, usually ${steps.<id>.quoteId}') })
  .describe('GET /cross-chain/quotes/{id}: returns the bridge order')

const createMerchant = z
  .strictObject({
    name: text,
    settlement_mode: z.enum(SETTLEMENT_MODES),
    escrow_fee_bps: orReference(z.number().int().min(0).max(10_000)).optional(),
  })
  .describe("POST /sandbox/merchants (admin token): returns the merchant with its keys; later steps still run as the scenario's merchant")

const pay = z
  .strictObject({
    payment: paymentRef,
    amount: smallestUnits.describe('Smallest units of the pricing currency; default what remains').optional(),
    underpay: z.boolean().describe('Pay half of what remains').optional(),
    overpay: z.boolean().describe('Pay what remains plus 10% of the amount').optional(),
    from: text.describe('Paying customer wallet (G…); default the one holding the most USDC').optional(),
    failSettlement: z.boolean().describe('Make the settlement fail when it comes').optional(),
    memo: text.describe('A wrong memo: the money lands on the destination and pays nothing').optional(),
    asset: z.enum(LEDGER_ASSET_CODES).describe('XLM is a wrong asset: the money lands and pays nothing').optional(),
  })
  .refine((body) => [body.amount !== undefined, body.underpay, body.overpay].filter(Boolean).length <= 1, {
    message: 'give at most one of amount, underpay and overpay',
  })
  .describe('A sandbox customer wallet pays over the ledger (POST /sandbox/payments/{id}/pay): returns the payment')

const advanceClock = z
  .strictObject({ by: duration.describe('Whole seconds at least: 90s, 31m, 2h, 7d') })
  .describe("Moves the scenario's business time forward and processes what came due (admin token)")

const freezeClock = z
  .strictObject({ at: text.describe('The instant to stand still at, ISO 8601 with a zone (default: now)').optional() })
  .describe("Stops the scenario's business time; advanceClock still moves it (admin token)")

const unfreezeClock = z.strictObject({}).describe("Lets the scenario's business time run again from where it stood (admin token)")

const MATCHERS = ['equals', 'notEquals', 'oneOf', 'matches'] as const
const matchers = {
  equals: z.unknown().describe('Deep equality with the value').optional(),
  notEquals: z.unknown().describe('Deep inequality').optional(),
  oneOf: z.array(z.unknown()).min(1).describe('Deep equality with any of these').optional(),
  matches: pattern.describe('A regular expression the value, as text, must match').optional(),
}
const exactlyOneMatcher = (body: Record<string, unknown>) => MATCHERS.filter((name) => name in body).length === 1

export const EXPECT_SUBJECTS = ['payment', 'invoice', 'refund', 'escrowOrder', 'step', 'value'] as const

const expect = z
  .strictObject({
    payment: paymentRef.describe('Fetch this payment now').optional(),
    invoice: invoiceRef.describe('Fetch this invoice now').optional(),
    refund: text.describe('Fetch this refund now').optional(),
    escrowOrder: paymentRef.describe("Fetch this payment's escrow order now").optional(),
    step: z.string().regex(STEP_ID).describe("An earlier step's result, by its id, as it was then").optional(),
    value: z.unknown().describe('Any value, usually a ${…} reference').optional(),
    field: text.describe('Path into the subject: status, amount.value, history[0].status').optional(),
    ...matchers,
    within: duration.describe('Fetch again until it holds, for this long (fetched subjects only)').optional(),
  })
  .refine((body) => EXPECT_SUBJECTS.filter((name) => name in body).length === 1, {
    message: `give exactly one of ${EXPECT_SUBJECTS.join(', ')}`,
  })
  .refine(exactlyOneMatcher, { message: `give exactly one of ${MATCHERS.join(', ')}` })
  .describe('A field of a resource or result equals (or matches) a value')

const expectWebhook = z
  .strictObject({
    payment: paymentRef,
    event: z.enum(WEBHOOK_EVENT_TYPES).optional(),
    status: text.describe("The payload's data.status").optional(),
    settlementStatus: text.describe("The payload's data.settlement_status").optional(),
    url: text.describe('Delivered to this URL').optional(),
    deliveryStatus: z.enum(['success', 'failed', 'skipped']).describe('How the delivery ended; default success').optional(),
    within: duration.describe('How long to wait for it; default 10s').optional(),
  })
  .describe(
    "The sandbox's delivery log has a matching delivery; when it went to ${receiver.url}, the receiver also got those exact bytes with a valid signature",
  )

const expectInvoiceNumber = z
  .strictObject({ invoice: invoiceRef, equals: z.string().optional(), matches: pattern.optional() })
  .refine((body) => (body.equals === undefined) !== (body.matches === undefined), { message: 'give exactly one of equals and matches' })
  .describe("The invoice's invoice_number")

const decimal = z.union([z.string(), z.number()])
const expectBalance = z
  .strictObject({
    asset: text.describe('USDC (default), XLM, native or USDC:<issuer>').optional(),
    equals: decimal.describe('The merchant\'s balance now, e.g. "9.9"').optional(),
    changedBy: decimal.describe('Balance now minus balance when the scenario started, e.g. "-0.5"').optional(),
    within: duration.describe('Check again until it holds, for this long').optional(),
  })
  .refine((body) => (body.equals === undefined) !== (body.changedBy === undefined), { message: 'give exactly one of equals and changedBy' })
  .describe("A balance of the merchant's settlement account")

/** Every kind of step, by the key that names it. */
export const STEP_ACTIONS = {
  createPayment,
  getPayment: paymentOnly.describe('GET /payments/{id}'),
  acceptUnderpayment: paymentOnly.describe('POST /payments/{id}/accept-underpayment: returns the payment'),
  refund,
  createInvoice,
  getInvoice: invoiceOnly.describe('GET /invoices/{id}'),
  cancelInvoice: invoiceOnly.describe('POST /invoices/{id}/cancel: voids the invoice, returns it'),
  invoiceSettings,
  escrowRelease: paymentOnly.describe('POST /sandbox/payments/{id}/escrow/release: returns the payment'),
  escrowFail: withReason.describe('POST /sandbox/payments/{id}/escrow/fail: returns the payment'),
  escrowStatus: paymentOnly.describe('GET /sandbox/payments/{id}/escrow: returns the order'),
  crossChainQuote,
  crossChainDeposit,
  crossChainStatus,
  createMerchant,
  pay,
  failPayment: withReason.describe('A simulated processing failure: returns the payment'),
  expirePayment: paymentOnly.describe('Expires the payment now: returns the payment'),
  advanceClock,
  freezeClock,
  unfreezeClock,
  expect,
  expectWebhook,
  expectInvoiceNumber,
  expectBalance,
} as const

export type StepAction = keyof typeof STEP_ACTIONS
export const STEP_ACTION_NAMES = Object.keys(STEP_ACTIONS) as StepAction[]
export type StepArgs<A extends StepAction> = z.infer<(typeof STEP_ACTIONS)[A]>

const actionFields = Object.fromEntries(STEP_ACTION_NAMES.map((name) => [name, STEP_ACTIONS[name].optional()])) as {
  [A in StepAction]: z.ZodOptional<(typeof STEP_ACTIONS)[A]>
}

export const stepSchema = z
  .strictObject({
    id: z
      .string()
      .regex(STEP_ID, { message: 'must start with a letter or _ and hold only letters, digits, _ and -' })
      .describe("Names the step's result for later steps: ${steps.<id>.<path>}")
      .optional(),
    name: text.describe('What the output calls the step').optional(),
    expectError: z
      .strictObject({
        status: z.number().int().min(400).max(599).describe('The HTTP status of the refusal').optional(),
        matches: pattern.describe('A regular expression the error message must match').optional(),
      })
      .describe('The action must be refused by the API (the step fails if it succeeds); its result is the error body')
      .optional(),
    ...actionFields,
  })
  .superRefine((step, context) => {
    const actions = STEP_ACTION_NAMES.filter((name) => step[name] !== undefined)
    if (actions.length !== 1) {
      context.addIssue({
        code: 'custom',
        message:
          actions.length === 0
            ? `a step needs one action: ${STEP_ACTION_NAMES.join(', ')}`
            : `one action per step, got ${actions.join(' and ')}`,
      })
    }
  })
  .describe('One step: an optional id and name, and exactly one action')

export const merchantSchema = z
  .union([
    z.literal('current').describe("The merchant of the CLI's connection (flags, env, profile or the local sandbox)"),
    z
      .strictObject({
        create: z.enum(SETTLEMENT_MODES).describe('A fresh merchant of this settlement mode, made for this run (admin token)'),
        name: text.optional(),
        escrowFeeBps: z.number().int().min(0).max(10_000).describe('Escrow merchants: default platform fee, basis points').optional(),
      })
      .describe('A fresh merchant: nothing another run did (balances, invoice numbers) shows'),
  ])
  .describe('Whom the scenario runs as; default current')

export const scenarioSchema = z
  .strictObject({
    $schema: z.string().optional(),
    name: text.describe('What the scenario proves'),
    description: z.string().optional(),
    merchant: merchantSchema.optional(),
    receiver: z.boolean().describe('Start a webhook receiver on 127.0.0.1 for this run; its URL is ${receiver.url}').optional(),
    steps: z.array(stepSchema).min(1, { message: 'must have at least 1 step' }),
  })
  .describe('A paybox scenario: steps run in order against a sandbox, stopping at the first failure')

export type Scenario = z.infer<typeof scenarioSchema>
export type ScenarioStep = z.infer<typeof stepSchema>
export type ScenarioMerchant = z.infer<typeof merchantSchema>

/** The action a validated step names. */
export const actionOf = (step: ScenarioStep): StepAction => STEP_ACTION_NAMES.find((name) => step[name] !== undefined)!

/** The JSON Schema published as scenarios/scenario.schema.json. */
export function scenarioJsonSchema(): Record<string, unknown> {
  const generated = z.toJSONSchema(scenarioSchema, {
    target: 'draft-2020-12',
    unrepresentable: 'any',
    // The refinements zod checks are not in the generated schema; this one matters to
    // editors: a step holds exactly one action.
    override: (ctx) => {
      if (ctx.zodSchema === stepSchema) ctx.jsonSchema.oneOf = STEP_ACTION_NAMES.map((name) => ({ required: [name] }))
    },
  }) as Record<string, unknown>
  const { $schema, ...rest } = generated
  return { $schema, $id: SCENARIO_SCHEMA_ID, title: 'paybox scenario', ...rest }
}

/** The published file's exact text. */
export const scenarioJsonSchemaText = (): string => `${JSON.stringify(scenarioJsonSchema(), null, 2)}\n`
