// GET /openapi.json cannot drift from the server: it is a valid OpenAPI 3.1 document, it
// describes exactly the routes Express has registered, and real requests and answers validate
// against its schemas (request bodies the document accepts are accepted, and the reverse).
import { Validator } from '@seriousme/openapi-schema-validator'
import Ajv2020Module from 'ajv/dist/2020.js'
import addFormatsModule from 'ajv-formats'
import type { Express } from 'express'
import { beforeAll, describe, expect, it } from 'vitest'
import type { Payment, WebhookDelivery } from '../../src/client/types.js'
import { createApp } from '../../sandbox/app/app.js'
import { DASHBOARD_PATH } from '../../sandbox/dashboard/dashboard-layout.js'
import { rawRequest, sandboxForSuite } from '../../harness/sandbox.js'
import { waitFor } from '../../harness/wait.js'
import { webhookReceiverForSuite } from '../../harness/webhook-receiver.js'

// CommonJS modules: TypeScript sees their namespace, Node their export; both carry .default.
const Ajv2020 = Ajv2020Module.default
const addFormats = addFormatsModule.default

type Json = Record<string, any> // eslint-disable-line @typescript-eslint/no-explicit-any -- walks arbitrary OpenAPI JSON

interface RegisteredRoute {
  method: string
  path: string
}

interface Layer {
  route?: { path: unknown; methods: Record<string, boolean | undefined> }
  handle?: { stack?: Layer[] }
  rawPath?: unknown
}

/** Every method + path the app registers, routers mounted under a prefix included, in OpenAPI form (/payments/{id}). */
function registeredRoutes(app: Express): RegisteredRoute[] {
  const routes: RegisteredRoute[] = []
  const join = (prefix: string, path: string) => (prefix + path).replace(/(.)\/$/, '$1')
  const walk = (stack: Layer[], prefix: string) => {
    for (const layer of stack) {
      if (layer.route) {
        if (typeof layer.route.path !== 'string') throw new Error(`a route with a non-string path: ${String(layer.route.path)}`)
        for (const [method, on] of Object.entries(layer.route.methods)) {
          if (on) routes.push({ method, path: join(prefix, layer.route.path).replace(/:(\w+)/g, '{$1}') })
        }
      } else if (Array.isArray(layer.handle?.stack)) {
        const mount = layer.rawPath === undefined || layer.rawPath === '/' ? '' : layer.rawPath
        if (typeof mount !== 'string') throw new Error(`a router mounted on a non-string path: ${String(mount)}`)
        walk(layer.handle.stack, join(prefix, mount))
      }
    }
  }
  walk((app as unknown as { router: { stack: Layer[] } }).router.stack, '')
  return routes
}

const label = (route: RegisteredRoute) => `${route.method.toUpperCase()} ${route.path}`
const METHODS = ['get', 'put', 'post', 'delete', 'patch', 'head', 'options', 'trace']

describe('the OpenAPI document', () => {
  const sandbox = sandboxForSuite({ webhookPollMs: 20 })
  const receiver = webhookReceiverForSuite(() => sandbox.merchants[0]!.apiSecret)
  let doc: Json
  let ajv: InstanceType<typeof Ajv2020>

  beforeAll(async () => {
    const response = await rawRequest(sandbox.url, { method: 'GET', path: '/openapi.json' })
    expect(response.status).toBe(200)
    expect(response.headers.get('content-type')).toMatch(/^application\/json/)
    doc = response.json as Json
    ajv = new Ajv2020({ strict: false, allErrors: true })
    addFormats(ajv)
    ajv.addSchema({ $id: 'openapi', components: doc.components })
  })

  const operationById = (operationId: string): Json => {
    for (const item of Object.values<Json>(doc.paths)) {
      for (const method of METHODS) if (item[method]?.operationId === operationId) return item[method]
    }
    throw new Error(`no operation ${operationId} in the document`)
  }

  /** Resolves a local $ref (#/components/…). */
  const deref = (node: Json): Json =>
    node.$ref
      ? node.$ref
          .slice(2)
          .split('/')
          .reduce((at: Json, key: string) => at[key], doc)
      : node

  const errorsOf = (schema: Json, value: unknown): string => {
    const validate = ajv.compile(schema.$ref ? { $ref: `openapi${schema.$ref}` } : schema)
    return validate(value) ? '' : ajv.errorsText(validate.errors, { separator: '\n' })
  }

  const covered = new Set<string>()
  /** The answer is one the document describes for that operation: its status, and a body matching its schema. */
  function expectDescribed(operationId: string, status: number, body: unknown): void {
    covered.add(operationId)
    const response = operationById(operationId).responses[String(status)]
    expect(response, `${operationId} does not document status ${status}`).toBeDefined()
    const schema = deref(response).content?.['application/json']?.schema
    expect(schema, `${operationId} ${status} has no JSON schema`).toBeDefined()
    expect(errorsOf(schema, body), `${operationId} ${status} answer does not match the document`).toBe('')
  }

  const requestSchema = (operationId: string): Json => operationById(operationId).requestBody.content['application/json'].schema

  it('is served without credentials and is a valid OpenAPI 3.1 document', async () => {
    const result = await new Validator().validate(doc)
    expect(result.errors).toBeUndefined()
    expect(result.valid).toBe(true)
    expect(doc.openapi).toBe('3.1.0')
    expect(doc.servers).toEqual([{ url: sandbox.url }])
  })

  it('describes every route the app registers, and nothing else', () => {
    const state = {
      snapshots: sandbox.snapshots,
      restore: () => Promise.reject(new Error('unused')),
      reset: () => Promise.reject(new Error('unused')),
      currentDb: () => sandbox.context.db,
    }
    // The dashboard is a browser UI with its own sign-in (docs/dashboard.md), not part of the API.
    const registered = registeredRoutes(createApp(sandbox.context, { state }))
      .filter((route) => route.path !== DASHBOARD_PATH && !route.path.startsWith(`${DASHBOARD_PATH}/`))
      .map(label)
    const described = Object.entries<Json>(doc.paths).flatMap(([path, item]) =>
      METHODS.filter((method) => item[method]).map((method) => label({ method, path })),
    )
    expect(registered.length).toBeGreaterThan(40)
    expect(new Set(registered).size).toBe(registered.length)
    expect([...described].sort()).toEqual([...registered].sort())
  })

  it('gives every operation an id, a summary, a tag, its security and the Error schema for every error status', () => {
    const ids = new Set<string>()
    for (const [path, item] of Object.entries<Json>(doc.paths)) {
      for (const method of METHODS.filter((m) => item[m])) {
        const operation = item[method]
        const where = `${method.toUpperCase()} ${path}`
        expect(operation.operationId, where).toMatch(/^[a-z][A-Za-z]+$/)
        expect(ids.has(operation.operationId), `${where} repeats ${operation.operationId}`).toBe(false)
        ids.add(operation.operationId)
        expect(operation.summary, where).toBeTruthy()
        expect(operation.tags, where).toHaveLength(1)
        expect(Array.isArray(operation.security), where).toBe(true)
        for (const [status, response] of Object.entries<Json>(operation.responses)) {
          const content = deref(response).content
          if (Number(status) >= 400 && content?.['application/json'])
            expect(content['application/json'].schema, `${where} ${status}`).toMatchObject({ $ref: expect.any(String) })
        }
        // Every path parameter is declared.
        for (const name of path.match(/\{(\w+)\}/g) ?? []) {
          expect(
            operation.parameters.some((p: Json) => p.in === 'path' && `{${p.name}}` === name),
            `${where} ${name}`,
          ).toBe(true)
        }
      }
    }
    const schemes = doc.components.securitySchemes
    expect(Object.values<Json>(schemes).map((s) => s.name)).toEqual([
      'x-digest-key',
      'x-digest-timestamp',
      'x-digest-signature',
      'x-sandbox-admin-token',
    ])
    expect(schemes.digestSignature.description).toContain('path + timestamp + METHOD + body')
    expect(operationById('createPayment').security).toEqual([{ digestKey: [], digestTimestamp: [], digestSignature: [] }])
    expect(operationById('createCrossChainQuote').security).toEqual([{}, { digestKey: [], digestTimestamp: [], digestSignature: [] }])
    expect(operationById('listLedgerAccounts').security).toEqual([{ adminToken: [] }])
    expect(operationById('getHealth').security).toEqual([])
    expect(Object.keys(operationById('createPayment').responses)).toEqual(['200', '400', '401', '409', '413', '415', '422', '429', '500'])
    // Rate limits and stream bounds (docs/security.md): every authenticated route, and every stream.
    expect(Object.keys(operationById('listLedgerAccounts').responses)).toContain('429')
    expect(Object.keys(operationById('horizonTransactions').responses)).toContain('429')
    expect(Object.keys(operationById('getHealth').responses)).not.toContain('429')
  })

  it("every JSON answer's schema carries an example that satisfies it, as a mock server (Prism) would serve it", () => {
    const responses: Array<{ where: string; response: Json }> = Object.entries<Json>(doc.components.responses).map(([name, response]) => ({
      where: name,
      response,
    }))
    for (const [path, item] of Object.entries<Json>(doc.paths)) {
      for (const method of METHODS) {
        for (const [status, response] of Object.entries<Json>(item[method]?.responses ?? {}))
          responses.push({ where: `${method} ${path} ${status}`, response })
      }
    }
    const checked = new Set<string>()
    for (const { where, response } of responses) {
      const schema = deref(response).content?.['application/json']?.schema
      if (!schema) continue
      // Prism's mock follows the reference and serves the schema's own example.
      const served = deref(schema)
      expect(served.example, `${where}: ${schema.$ref ?? 'inline schema'} has no example`).toBeDefined()
      expect(errorsOf(schema, served.example), `${where}: the example does not satisfy ${schema.$ref ?? 'its schema'}`).toBe('')
      checked.add(schema.$ref ?? where)
    }
    expect(checked).toContain('#/components/schemas/Payment')
    expect(checked.size).toBeGreaterThan(30)
  })

  it('request bodies are the schemas the server validates with: what the document accepts is accepted, what it refuses is refused', async () => {
    const schema = requestSchema('createPayment')
    const valid = { amount: { value: 1250, currency: 'EUR' }, description: 'Order 1', locale: 'es', metadata: { order: 1 } }
    expect(errorsOf(schema, valid)).toBe('')
    await expect(sandbox.direct.payments.create(valid as never)).resolves.toMatchObject({ status: 'open' })

    const as = sandbox.merchants[0]!
    for (const invalid of [
      { ...valid, colour: 'red' },
      { ...valid, amount: { value: 12.5, currency: 'EUR' } },
      { ...valid, amount: { value: 1250, currency: 'XXX' } },
      { ...valid, locale: 'fr' },
      { description: 'no amount' },
    ]) {
      expect(errorsOf(schema, invalid), JSON.stringify(invalid)).not.toBe('')
      const answer = await rawRequest(sandbox.url, { method: 'POST', path: '/payments', body: JSON.stringify(invalid), as })
      expect(answer.status, JSON.stringify(invalid)).toBe(400)
      expectDescribed('createPayment', 400, answer.json)
    }
    // Optional bodies are documented as optional; required ones as required.
    expect(operationById('createPayment').requestBody.required).toBe(true)
    expect(operationById('refundPayment').requestBody.required).toBe(false)
    expect(errorsOf(requestSchema('createInvoice'), { currency: 'EUR', line_items: [], customer_id: 'c' })).toContain(
      'must NOT have fewer than 1 items',
    )
  })

  it('answers of the payment, refund, invoice and account endpoints match the documented resources', async () => {
    const client = sandbox.direct
    const payment = await client.payments.create({
      amount: { value: 2000, currency: 'USD' },
      description: 'Described',
      webhookUrl: receiver.url,
      metadata: { a: 1 },
    })
    expectDescribed('createPayment', 200, payment)
    expectDescribed('simulatePay', 200, await client.sandbox.pay(payment.id, { amount: 500 }))
    expectDescribed('acceptUnderpayment', 200, await client.payments.acceptUnderpayment(payment.id))
    expectDescribed('getPayment', 200, await client.payments.get(payment.id))
    expectDescribed('listPayments', 200, await client.payments.list({ limit: 5 }))
    const refund = await client.payments.refund(payment.id)
    expectDescribed('refundPayment', 200, refund)
    expectDescribed('getRefund', 200, await client.refunds.get(refund.refund_id))
    expectDescribed('listRefunds', 200, await client.refunds.list())

    const other = await client.payments.create({ amount: { value: 700, currency: 'EUR' }, description: 'Fails' })
    expectDescribed('simulateFailure', 200, await client.sandbox.fail(other.id, { reason: 'card declined' }))
    const third = await client.payments.create({ amount: { value: 700, currency: 'EUR' }, description: 'Expires' })
    expectDescribed('simulateExpiry', 200, await client.sandbox.expire(third.id))
    const chains = await client.crossChain.chains()
    expectDescribed('listOriginChains', 200, chains)
    const fourth = await client.payments.create({ amount: { value: 900, currency: 'USD' }, description: 'Bridged' })
    const quote = await client.crossChain.quote(fourth.id, {
      originChain: 'base',
      originToken: 'USDC',
      refundAddress: `0x${'ab'.repeat(20)}`,
    })
    expectDescribed('createCrossChainQuote', 200, quote)
    expectDescribed('simulateDeposit', 200, await client.crossChain.deposit(quote.quoteId))
    expectDescribed('getCrossChainQuote', 200, await client.crossChain.status(quote.quoteId))

    const invoice = await client.invoices.create({
      currency: 'EUR',
      line_items: [{ description: 'Work', quantity: 2, unit_price: 1500 }],
      tax_percentage: 21,
      customer: { email: 'a@example.com', name: 'Ana', address: { line1: 'Calle 1', postal_code: '28001', city: 'Madrid', country: 'ES' } },
    })
    expectDescribed('createInvoice', 200, invoice)
    expectDescribed('getInvoice', 200, await client.invoices.get(invoice.id))
    expectDescribed('listInvoices', 200, await client.invoices.list())
    expectDescribed('cancelInvoice', 200, await client.invoices.cancel(invoice.id))
    expectDescribed('getInvoiceSettings', 200, await client.invoices.settings())
    expectDescribed('updateInvoiceSettings', 200, await client.invoices.updateSettings({ invoice_prefix: 'INV-{year}-' }))

    expectDescribed('listBalances', 200, await client.balances.list())
    expectDescribed('getBalance', 200, await client.balances.get('USDC'))
    expectDescribed('getFeeTier', 200, await client.merchant.feeTier())
    expectDescribed('getMerchant', 200, await client.merchant.get())
    expectDescribed('listCurrencies', 200, await client.currencies.list())
  })

  it('answers of the webhook log, the escrow controls and the admin endpoints match, and so does a webhook body', async () => {
    const client = sandbox.direct
    const payment = await client.payments.create({
      amount: { value: 1000, currency: 'USD' },
      description: 'Hooked',
      webhookUrl: receiver.url,
    })
    const deliveries = await waitFor('a finished delivery', async () => {
      const page = await client.webhooks.list({ checkout_id: payment.id })
      return page.items.length > 0 && page.items.every((d) => d.status !== 'pending') ? page : undefined
    })
    expectDescribed('listWebhookDeliveries', 200, deliveries)
    const delivery: WebhookDelivery = await client.webhooks.get(deliveries.items[0]!.id)
    expectDescribed('getWebhookDelivery', 200, delivery)
    expectDescribed('resendWebhookDelivery', 200, await client.webhooks.resend(delivery.id))
    expectDescribed('pauseWebhooks', 200, await client.webhooks.pause())
    expectDescribed('resumeWebhooks', 200, await client.webhooks.resume())
    const body = receiver.received.find((r) => r.raw.toString('utf8').includes(payment.id))!
    expect(errorsOf({ $ref: '#/components/schemas/WebhookBody' }, JSON.parse(body.raw.toString('utf8')))).toBe('')

    const order: Payment = await sandbox.escrow.payments.create({ amount: { value: 5000, currency: 'USD' }, description: 'Escrowed' })
    expectDescribed('simulatePay', 200, await sandbox.escrow.sandbox.pay(order.id))
    expectDescribed('getEscrowOrder', 200, await sandbox.escrow.escrow.status(order.id))
    expectDescribed('getPaymentWebhooksState', 200, await sandbox.escrow.sandbox.webhooksState(order.id))
    expectDescribed('releaseEscrow', 200, await sandbox.escrow.escrow.release(order.id))
    const unfunded = await sandbox.escrow.payments.create({ amount: { value: 5000, currency: 'USD' }, description: 'Unfunded' })
    expectDescribed('failEscrow', 200, await sandbox.escrow.escrow.fail(unfunded.id))

    const admin = sandbox.admin
    expectDescribed('listSandboxMerchants', 200, await admin.sandbox.merchants())
    const created = await admin.sandbox.createMerchant({ name: 'Described shop', settlement_mode: 'direct' })
    expectDescribed('createSandboxMerchant', 201, created)
    expectDescribed('rotateMerchantSecret', 200, await admin.sandbox.rotateSecret(created.id))
    expectDescribed('getSandboxClock', 200, await admin.sandbox.clock())
    expectDescribed('createDashboardSignInLink', 201, await admin.sandbox.dashboardLink())
    expectDescribed('advanceSandboxClock', 200, await admin.sandbox.advanceClock({ seconds: 1 }))
    expectDescribed('listLedgerAccounts', 200, await admin.ledger.accounts())
    const transactions = await admin.ledger.transactions({ limit: 3 })
    expectDescribed('listLedgerTransactions', 200, transactions)
    expectDescribed('getLedgerTransaction', 200, await admin.ledger.transaction(transactions.items[0]!.hash))

    const requests = await client.requestLogs.list({ limit: 5 })
    expect(requests.items.length).toBeGreaterThan(0)
    expectDescribed('listRequests', 200, requests)
    expectDescribed('listAllRequests', 200, await admin.requestLogs.listAll({ status: '2xx' }))

    const health = await rawRequest(sandbox.url, { method: 'GET', path: '/health' })
    expectDescribed('getHealth', health.status, health.json)
    expectDescribed('getOpenApiDocument', 200, doc)
  })

  it('error answers match the documented Error responses', async () => {
    const as = sandbox.merchants[0]!
    const unknown = await rawRequest(sandbox.url, { method: 'GET', path: `/payments/pt_${'0'.repeat(32)}`, as })
    expect(unknown.status).toBe(404)
    expectDescribed('getPayment', 404, unknown.json)
    const unsigned = await rawRequest(sandbox.url, { method: 'GET', path: '/invoices' })
    expect(unsigned.status).toBe(401)
    expectDescribed('listInvoices', 401, unsigned.json)
    const notJson = await rawRequest(sandbox.url, {
      method: 'POST',
      path: '/payments',
      body: 'a=1',
      headers: { 'content-type': 'text/plain' },
      as,
    })
    expect(notJson.status).toBe(415)
    expectDescribed('createPayment', 415, notJson.json)
    const noToken = await rawRequest(sandbox.url, { method: 'GET', path: '/sandbox/clock' })
    expect(noToken.status).toBe(401)
    expectDescribed('getSandboxClock', 401, noToken.json)
    const underpaidOnly = await sandbox.direct.payments.create({ amount: { value: 100, currency: 'USD' }, description: 'Open' })
    const refused = await rawRequest(sandbox.url, { method: 'POST', path: `/payments/${underpaidOnly.id}/refunds`, as })
    expect(refused.status).toBe(409)
    expectDescribed('refundPayment', 409, refused.json)
  })

  it('answers of the clock, wallet, snapshot and Horizon endpoints match', async () => {
    const admin = sandbox.admin
    const frozen = await admin.request('POST', '/sandbox/clock/freeze', { auth: 'admin', body: {} })
    expectDescribed('freezeSandboxClock', 200, frozen)
    expectDescribed('unfreezeSandboxClock', 200, await admin.request('POST', '/sandbox/clock/unfreeze', { auth: 'admin' }))
    const wallet = await admin.request<{ publicKey: string }>('POST', '/sandbox/wallets', { auth: 'admin', body: { usdc: '10' } })
    expectDescribed('createWallet', 201, wallet)
    // Without USDC there is no funding transaction: fundingTxId is null.
    expectDescribed('createWallet', 201, await admin.request('POST', '/sandbox/wallets', { auth: 'admin', body: { usdc: '0' } }))

    expectDescribed('horizonRoot', 200, (await rawRequest(sandbox.url, { method: 'GET', path: '/horizon' })).json)
    expectDescribed(
      'horizonGetAccount',
      200,
      (await rawRequest(sandbox.url, { method: 'GET', path: `/horizon/accounts/${wallet.publicKey}` })).json,
    )
    const transactions = await rawRequest(sandbox.url, { method: 'GET', path: `/horizon/accounts/${wallet.publicKey}/transactions` })
    expectDescribed('horizonAccountTransactions', 200, transactions.json)
    const hash = (transactions.json as Json)._embedded.records[0].hash as string
    expectDescribed(
      'horizonGetTransaction',
      200,
      (await rawRequest(sandbox.url, { method: 'GET', path: `/horizon/transactions/${hash}` })).json,
    )
    expectDescribed(
      'horizonTransactionPayments',
      200,
      (await rawRequest(sandbox.url, { method: 'GET', path: `/horizon/transactions/${hash}/payments` })).json,
    )
    expectDescribed('horizonPayments', 200, (await rawRequest(sandbox.url, { method: 'GET', path: '/horizon/payments?limit=2' })).json)
    expectDescribed(
      'horizonAccountEffects',
      200,
      (await rawRequest(sandbox.url, { method: 'GET', path: `/horizon/accounts/${wallet.publicKey}/effects` })).json,
    )
    const missing = await rawRequest(sandbox.url, { method: 'GET', path: `/horizon/transactions/${'0'.repeat(64)}` })
    expect(missing.status).toBe(404)
    expectDescribed('horizonGetTransaction', 404, missing.json)

    const name = `described-${Date.now()}`
    const saved = await admin.request('POST', '/sandbox/snapshots', { auth: 'admin', body: { name } })
    expectDescribed('saveSnapshot', 201, saved)
    expectDescribed('listSnapshots', 200, await admin.request('GET', '/sandbox/snapshots', { auth: 'admin' }))
    expectDescribed('getSnapshot', 200, await admin.request('GET', `/sandbox/snapshots/${name}`, { auth: 'admin' }))
    const again = await rawRequest(sandbox.url, {
      method: 'POST',
      path: '/sandbox/snapshots',
      body: JSON.stringify({ name }),
      headers: { 'x-sandbox-admin-token': sandbox.identity.adminToken },
    })
    expect(again.status).toBe(409)
    expectDescribed('saveSnapshot', 409, again.json)
    // Restoring the state just saved changes nothing the other tests rely on.
    expectDescribed('restoreSnapshot', 200, await admin.request('POST', `/sandbox/snapshots/${name}/restore`, { auth: 'admin' }))
    const deleted = await rawRequest(sandbox.url, {
      method: 'DELETE',
      path: `/sandbox/snapshots/${name}`,
      headers: { 'x-sandbox-admin-token': sandbox.identity.adminToken },
    })
    expect(deleted.status).toBe(204)
    expect(operationById('deleteSnapshot').responses['204']).toBeDefined()
    covered.add('deleteSnapshot')
  })

  it('answers of the tenant and merchant clock endpoints match', async () => {
    const admin = sandbox.admin
    const tenant = await admin.sandbox.createTenant({ name: 'OpenAPI job', frozenAt: '2030-01-01T00:00:00Z' })
    expectDescribed('createTenant', 201, tenant)
    expectDescribed('listTenants', 200, await admin.sandbox.listTenants())
    const id = tenant.merchant.id
    expectDescribed('getMerchantClock', 200, await admin.sandbox.getMerchantClock(id))
    expectDescribed('advanceMerchantClock', 200, await admin.sandbox.advanceMerchantClock(id, { seconds: 60 }))
    expectDescribed('unfreezeMerchantClock', 200, await admin.sandbox.unfreezeMerchantClock(id, {}))
    expectDescribed('freezeMerchantClock', 200, await admin.sandbox.freezeMerchantClock(id, {}))
    expectDescribed('archiveTenant', 200, await admin.sandbox.archiveTenant(id))
  })

  it('every operation answering JSON was checked against a real answer above, except the few listed here', () => {
    const json = Object.values<Json>(doc.paths).flatMap((item) =>
      METHODS.filter(
        (m) =>
          item[m] &&
          Object.entries<Json>(item[m].responses).some(([status, r]) => Number(status) < 400 && deref(r).content?.['application/json']),
      ).map((m) => item[m].operationId as string),
    )
    // Resetting would replace the state under the other tests; the rest are Horizon variants of checked operations.
    const unchecked = [
      'resetSandbox',
      'horizonFeeStats',
      'horizonAccountPayments',
      'horizonAccountOperations',
      'horizonOperations',
      'horizonTransactions',
      'horizonSubmitTransaction',
      'horizonTransactionOperations',
      'horizonGetOperation',
      'horizonGetLedger',
      'horizonLedgerTransactions',
      'horizonLedgerPayments',
      'horizonLedgerOperations',
      'horizonEffects',
      'horizonTransactionEffects',
      'horizonOperationEffects',
      'horizonLedgerEffects',
    ]
    expect(json.filter((id) => !covered.has(id)).sort()).toEqual(unchecked.sort())
  })
})
