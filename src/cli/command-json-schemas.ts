// The `--json` contract of every command as zod schemas (API results are src/api/'s), checked against
// real output by test/cli/json-contract.test.ts so scripts can rely on it.
import { z } from 'zod'
import { HEALTH_STATUSES } from '../api/enumerations.js'
import * as api from '../api/resources.js'
import * as account from '../api/contract/account.js'
import * as crossChain from '../api/contract/cross-chain.js'
import * as invoices from '../api/contract/invoices.js'
import * as payments from '../api/contract/payments.js'
import * as requestLogs from '../api/contract/request-logs.js'
import * as sandboxAdmin from '../api/contract/sandbox-admin.js'
import * as simulations from '../api/contract/sandbox-simulations.js'
import * as tenants from '../api/contract/tenants.js'
import * as webhookLogs from '../api/contract/webhook-logs.js'

/** What every command prints with --json when it fails. */
export const commandErrorJson = z.object({
  error: z.object({ message: z.string(), statusCode: z.number().int().optional(), reason: z.string().optional() }),
})

// Restore and reset print the merchants' keys, never their secrets (`sandbox keys` prints those).
const stateSwap = sandboxAdmin.resetState.extend({
  merchants: z.array(sandboxAdmin.resetState.shape.merchants.element.omit({ apiSecret: true })),
  snapshot: sandboxAdmin.snapshot.optional(),
})
const health = sandboxAdmin.health.extend({ status: z.enum(HEALTH_STATUSES) })
const profile = z.looseObject({ baseUrl: z.string().optional(), apiKey: z.string().optional() })

/** One document, or (`lines`, the live streams) one document per line for as long as it runs. */
export interface CommandJson {
  schema: z.ZodType
  output: 'document' | 'lines'
}

const document = (schema: z.ZodType): CommandJson => ({ schema, output: 'document' })
const lines = (schema: z.ZodType): CommandJson => ({ schema, output: 'lines' })

/** By command id, every command of commands/command-files.ts. */
export const COMMAND_JSON_SCHEMAS: Record<string, CommandJson | null> = {
  balances: document(z.union([account.accountBalances, account.balance])),
  chains: document(crossChain.originChains),
  'config:get': document(z.object({ profile: z.string(), key: z.string(), value: z.string().nullable() })),
  'config:list': document(z.object({ file: z.string(), profiles: z.record(z.string(), profile) })),
  'config:set': document(z.object({ profile: z.string(), key: z.string(), file: z.string() })),
  currencies: document(api.itemsOf(account.currency)),
  dashboard: document(sandboxAdmin.dashboardSignInLink.pick({ url: true })),
  'escrow:fail': document(api.payment),
  'escrow:fund': document(z.object({ payment: api.payment, escrow: simulations.escrowOrder })),
  'escrow:release': document(api.payment),
  'escrow:status': document(simulations.escrowOrder),
  'fee-tier': document(account.feeTier),
  'invoices:cancel': document(invoices.invoice),
  'invoices:create': document(invoices.invoice),
  'invoices:get': document(invoices.invoice),
  'invoices:list': document(api.pageOf(invoices.invoice, false)),
  'invoices:settings': document(invoices.invoiceSettings),
  'ledger:accounts': document(api.itemsOf(sandboxAdmin.ledgerAccount)),
  'ledger:transactions': document(api.itemsOf(sandboxAdmin.ledgerTransaction)),
  'ledger:tx': document(sandboxAdmin.ledgerTransaction),
  'ledger:wallet:create': document(sandboxAdmin.wallet),
  listen: lines(
    webhookLogs.paymentEvent
      .omit({ payload: true })
      .extend({ status: z.number().int().nullable(), duration_ms: z.number().int().min(0), error: z.string().nullable() }),
  ),
  login: document(z.object({ profile: z.string(), baseUrl: z.string(), apiKey: z.string() })),
  'logs:tail': lines(requestLogs.requestLogEntry),
  'merchants:create': document(api.sandboxMerchant),
  'merchants:rotate-secret': document(
    z.object({
      merchant: api.sandboxMerchant,
      updatedStateFile: z.string().optional(),
      staleProfiles: z.array(z.string()),
      staleEnvironment: z.boolean(),
    }),
  ),
  openapi: document(
    z.union([sandboxAdmin.openApiDocument, z.object({ output: z.string(), openapi: z.unknown(), paths: z.number().int() })]),
  ),
  'payments:accept-underpayment': document(api.payment),
  'payments:create': document(api.payment),
  'payments:deposit': document(crossChain.depositResult),
  'payments:expire': document(api.payment),
  'payments:fail': document(api.payment),
  'payments:get': document(api.payment),
  'payments:list': document(api.pageOf(api.payment, true)),
  'payments:pay': document(api.payment),
  'payments:quote': document(crossChain.crossChainQuote),
  'payments:quote-status': document(crossChain.crossChainQuote),
  'payments:refund': document(payments.refund),
  'refunds:get': document(payments.refund),
  'refunds:list': document(api.pageOf(payments.refund, true)),
  'sandbox:clock': document(api.sandboxClock),
  'sandbox:clock:advance': document(api.advancedClock),
  'sandbox:clock:freeze': document(api.sandboxClock),
  'sandbox:clock:unfreeze': document(api.sandboxClock),
  'sandbox:migrate': document(z.object({ database: z.string(), applied: z.array(z.string()), latest: z.string().nullable() })),
  'sandbox:keys': document(z.object({ baseUrl: z.string(), adminToken: z.string(), merchants: z.array(api.sandboxMerchant) })),
  // Prints the sandbox's own log lines: it has no --json.
  'sandbox:logs': null,
  'sandbox:reset': document(stateSwap),
  'sandbox:snapshot:list': document(api.itemsOf(sandboxAdmin.snapshot)),
  'sandbox:snapshot:restore': document(stateSwap),
  'sandbox:snapshot:save': document(sandboxAdmin.snapshot),
  // One line, once the server accepts connections.
  'sandbox:start': lines(
    z.object({
      baseUrl: z.string(),
      horizonUrl: z.string(),
      adminToken: z.string(),
      networkPassphrase: z.string(),
      database: z.string(),
      joined: z.boolean(),
      merchants: z.array(sandboxAdmin.resetState.shape.merchants.element),
    }),
  ),
  'sandbox:status': document(z.object({ baseUrl: z.string(), status: z.string(), merchants: z.array(api.sandboxMerchant).optional() })),
  // The tenant's merchant with its keys (a CI job acts as it), and its own clock.
  'sandbox:tenant:create': document(tenants.createdTenant),
  'sandbox:tenant:delete': document(tenants.archivedTenant),
  'sandbox:stop': document(z.object({ pid: z.number().int(), baseUrl: z.string().optional() })),
  'sandbox:wait': document(health.extend({ baseUrl: z.string() })),
  'scenario:run': document(
    z.looseObject({
      file: z.string(),
      name: z.string(),
      passed: z.boolean(),
      merchant: z.looseObject({}),
      // An isolated run's tenant: never its keys.
      tenant: z.strictObject({ id: z.string(), name: z.string(), archivedAt: z.string().optional() }).optional(),
      steps: z.array(z.looseObject({ index: z.number().int(), name: z.string(), status: z.string() })),
      summary: z.object({ total: z.number().int(), passed: z.number().int(), failed: z.number().int(), skipped: z.number().int() }),
      durationMs: z.number(),
    }),
  ),
  trigger: document(
    z.object({
      payment: api.payment,
      deliveries: z.array(
        webhookLogs.webhookDeliverySummary.extend(
          webhookLogs.webhookDelivery.partial().pick({ request_payload: true, response_body: true }).shape,
        ),
      ),
    }),
  ),
  'webhooks:get': document(webhookLogs.webhookDelivery),
  'webhooks:list': document(api.pageOf(webhookLogs.webhookDeliverySummary, false)),
  'webhooks:pause': document(webhookLogs.webhooksPausedState),
  'webhooks:resend': document(webhookLogs.webhookDelivery),
  'webhooks:resume': document(webhookLogs.webhooksPausedState),
  'webhooks:tail': lines(webhookLogs.webhookDelivery),
  'webhooks:test-receiver': document(
    z.looseObject({
      url: z.string(),
      timeoutMs: z.number(),
      cases: z.array(z.looseObject({ id: z.string(), title: z.string() })),
      responseTime: z.looseObject({ budgetMs: z.number(), timedOut: z.number().int(), verdict: z.enum(['pass', 'fail']) }),
      deduplication: z.string(),
      passed: z.boolean(),
    }),
  ),
  'webhooks:verify': document(z.object({ valid: z.boolean() })),
}
