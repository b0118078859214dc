// The --json contract (issue #16, item 6): every command has a schema of what it prints with
// --json (src/cli/command-json-schemas.ts), and every command that answers once prints, against
// a real sandbox, exactly one JSON document its schema accepts. The schemas are checked as JSON
// Schema, as scripts and other languages would read them: a field the schema does not list fails.
import crypto from 'node:crypto'
import fs from 'node:fs'
import path from 'node:path'
import { describe, expect, it } from 'vitest'
import { COMMAND_FILES } from '../../commands/command-files.js'
import type { CrossChainQuote, Payment, WebhookDelivery } from '../../src/client/types.js'
import { COMMAND_JSON_SCHEMAS, commandErrorJson } from '../../src/cli/command-json-schemas.js'
import { isolatedEnv, merchantEnv, runCliJson, type CliEnv } from '../../harness/cli.js'
import { expectCommandJson, jsonSchemaErrors } from '../../harness/json-contract.js'
import { sandboxForSuite, temporaryDir } from '../../harness/sandbox.js'
import { webhookReceiverForSuite } from '../../harness/webhook-receiver.js'

/** Commands that run until stopped: their tests check their --json lines with expectCommandJson. */
const LONG_RUNNING = ['listen', 'logs:tail', 'webhooks:tail', 'sandbox:start', 'sandbox:logs']
/** Stops the detached sandbox process of a data folder: test/cli/sandbox-detach.test.ts runs it. */
const NEEDS_A_DETACHED_SANDBOX = ['sandbox:stop']

describe('the --json contract', () => {
  const sandbox = sandboxForSuite({ webhookPollMs: 20 })
  const receiver = webhookReceiverForSuite(() => sandbox.merchants[0]!.apiSecret)
  const ran = new Set<string>()
  const env = (): CliEnv => merchantEnv(sandbox)
  const escrowEnv = (): CliEnv => merchantEnv(sandbox, 'escrow')

  /** Runs `paybox <argv> --json` and checks stdout against the command's schema. */
  async function expectContract<T>(id: string, argv: string[], cliEnv: CliEnv = env(), exitCodes = [0]): Promise<T> {
    const result = await runCliJson<T>(argv, cliEnv)
    expect(exitCodes, `paybox ${argv.join(' ')} --json failed: ${result.stderr}`).toContain(result.exitCode)
    expectCommandJson(id, result.json)
    ran.add(id)
    return result.json
  }

  it('every command has a --json schema, and only commands have one', () => {
    expect(Object.keys(COMMAND_JSON_SCHEMAS).sort()).toEqual(Object.keys(COMMAND_FILES).sort())
    for (const [id, contract] of Object.entries(COMMAND_JSON_SCHEMAS)) if (contract === null) expect(LONG_RUNNING, id).toContain(id)
  })

  it('a failing command prints the error document', async () => {
    const result = await runCliJson(['payments', 'get', 'pt_00000000000000000000000000000000'], env())
    expect(result.exitCode).toBe(1)
    expect(jsonSchemaErrors(commandErrorJson, result.json)).toBe('')
  })

  it('payments, refunds and cross-chain commands print what their schemas say', async () => {
    const created = await expectContract<Payment>('payments:create', [
      'payments',
      'create',
      '--amount',
      '25.00',
      '--currency',
      'USD',
      '--description',
      'Contract',
      '--webhook-url',
      receiver.url,
    ])
    await expectContract('payments:get', ['payments', 'get', created.id])
    const paid = await expectContract<Payment>('payments:pay', ['payments', 'pay', created.id])
    await expectContract('payments:list', ['payments', 'list', '--limit', '2'])
    await expectContract('payments:refund', ['payments', 'refund', paid.id, '--amount', '1.00'])
    await expectContract('refunds:list', ['refunds', 'list'])
    const { items } = await sandbox.direct.refunds.list()
    await expectContract('refunds:get', ['refunds', 'get', items[0]!.refund_id])

    const underpaid = await sandbox.direct.payments.create({ amount: { value: 1000, currency: 'USD' }, description: 'Short' })
    await sandbox.direct.sandbox.pay(underpaid.id, { amount: 400 })
    await expectContract('payments:accept-underpayment', ['payments', 'accept-underpayment', underpaid.id])
    const toExpire = await sandbox.direct.payments.create({ amount: { value: 1000, currency: 'USD' }, description: 'Late' })
    await expectContract('payments:expire', ['payments', 'expire', toExpire.id])
    const toFail = await sandbox.direct.payments.create({ amount: { value: 1000, currency: 'USD' }, description: 'Broken' })
    await expectContract('payments:fail', ['payments', 'fail', toFail.id])

    const crossChain = await sandbox.direct.payments.create({ amount: { value: 1000, currency: 'USD' }, description: 'Across chains' })
    const quote = await expectContract<CrossChainQuote>('payments:quote', [
      'payments',
      'quote',
      crossChain.id,
      '--origin-chain',
      'ethereum',
      '--origin-token',
      'USDC',
      '--refund-address',
      '0x52908400098527886E0F7030069857D2E4169EE7',
    ])
    await expectContract('payments:quote-status', ['payments', 'quote-status', quote.quoteId])
    await expectContract('payments:deposit', ['payments', 'deposit', quote.quoteId])
  })

  it('escrow, invoice and account commands print what their schemas say', async () => {
    const funded = await sandbox.escrow.payments.create({ amount: { value: 5000, currency: 'USD' }, description: 'Escrowed' })
    await expectContract('escrow:fund', ['escrow', 'fund', funded.id], escrowEnv())
    await expectContract('escrow:status', ['escrow', 'status', funded.id], escrowEnv())
    await expectContract('escrow:release', ['escrow', 'release', funded.id], escrowEnv())
    const unfunded = await sandbox.escrow.payments.create({ amount: { value: 5000, currency: 'USD' }, description: 'Never funded' })
    await expectContract('escrow:fail', ['escrow', 'fail', unfunded.id], escrowEnv())

    const invoice = await expectContract<{ id: string }>('invoices:create', [
      'invoices',
      'create',
      '--currency',
      'USD',
      '--item',
      'Widget;2;10.00',
      '--customer-email',
      'ada@example.com',
      '--customer-name',
      'Ada Lovelace',
      '--customer-type',
      'individual',
    ])
    await expectContract('invoices:get', ['invoices', 'get', invoice.id])
    await expectContract('invoices:list', ['invoices', 'list'])
    await expectContract('invoices:settings', ['invoices', 'settings'])
    await expectContract('invoices:cancel', ['invoices', 'cancel', invoice.id, '--yes'])

    await expectContract('balances', ['balances'])
    await expectContract('balances', ['balances', 'USDC'])
    await expectContract('currencies', ['currencies'])
    await expectContract('chains', ['chains'])
    await expectContract('fee-tier', ['fee-tier'])
  })

  it('webhook commands print what their schemas say', async () => {
    const triggered = await expectContract<{ payment: Payment }>('trigger', [
      'trigger',
      'transaction_created',
      '--webhook-url',
      receiver.url,
    ])
    const deliveries = await sandbox.direct.webhooks.list({ checkout_id: triggered.payment.id })
    const delivery = deliveries.items[0] as WebhookDelivery
    await expectContract('webhooks:list', ['webhooks', 'list'])
    await expectContract('webhooks:get', ['webhooks', 'get', delivery.id])
    await expectContract('webhooks:resend', ['webhooks', 'resend', delivery.id])
    await expectContract('webhooks:pause', ['webhooks', 'pause'])
    await expectContract('webhooks:resume', ['webhooks', 'resume'])

    const dir = temporaryDir()
    const body = '{"data":{"id":"pt_1"}}'
    fs.writeFileSync(path.join(dir, 'body.json'), body)
    const signature = crypto.createHmac('sha256', 'sk_test_secret').update(body).digest('hex')
    await expectContract(
      'webhooks:verify',
      ['webhooks', 'verify', '--secret', 'sk_test_secret', '--signature', signature, '--file', path.join(dir, 'body.json')],
      isolatedEnv(),
    )
    // The test receiver is no model receiver: the grading fails (exit 1) and still prints its report.
    await expectContract(
      'webhooks:test-receiver',
      ['webhooks', 'test-receiver', receiver.url, '--secret', sandbox.merchants[0]!.apiSecret, '--timeout', '2s'],
      isolatedEnv(),
      [0, 1],
    )
  })

  it('ledger, merchant, sandbox, config and tool commands print what their schemas say', async () => {
    const paid = await sandbox.direct.sandbox.pay(
      (await sandbox.direct.payments.create({ amount: { value: 700, currency: 'USD' }, description: 'On the ledger' })).id,
    )
    await expectContract('ledger:accounts', ['ledger', 'accounts', '--role', 'merchant'])
    await expectContract('ledger:transactions', ['ledger', 'transactions', '--limit', '3'])
    await expectContract('ledger:tx', ['ledger', 'tx', paid.stellarTxId!])
    await expectContract('ledger:wallet:create', ['ledger', 'wallet', 'create'])

    const merchant = await expectContract<{ id: string }>('merchants:create', [
      'merchants',
      'create',
      '--name',
      'Contract Shop',
      '--settlement-mode',
      'direct',
    ])
    await expectContract('merchants:rotate-secret', ['merchants', 'rotate-secret', merchant.id])

    await expectContract('sandbox:status', ['sandbox', 'status'])
    await expectContract('dashboard', ['dashboard'])
    await expectContract('sandbox:keys', ['sandbox', 'keys'])
    await expectContract('sandbox:wait', ['sandbox', 'wait', '--timeout', '30s'])
    await expectContract('sandbox:migrate', ['sandbox', 'migrate', '--db', path.join(temporaryDir(), 'migrated.db')])
    await expectContract('sandbox:clock', ['sandbox', 'clock'])
    await expectContract('sandbox:clock:freeze', ['sandbox', 'clock', 'freeze'])
    await expectContract('sandbox:clock:unfreeze', ['sandbox', 'clock', 'unfreeze'])
    await expectContract('sandbox:clock:advance', ['sandbox', 'clock', 'advance', '1h'])
    const tenant = await expectContract<{ merchant: { id: string } }>('sandbox:tenant:create', ['sandbox', 'tenant', 'create'])
    await expectContract('sandbox:clock:advance', ['sandbox', 'clock', 'advance', '1h', '--merchant', tenant.merchant.id])
    await expectContract('sandbox:tenant:delete', ['sandbox', 'tenant', 'delete', tenant.merchant.id])
    await expectContract('sandbox:snapshot:save', ['sandbox', 'snapshot', 'save', 'contract'])
    await expectContract('sandbox:snapshot:list', ['sandbox', 'snapshot', 'list'])
    await expectContract('sandbox:snapshot:restore', ['sandbox', 'snapshot', 'restore', 'contract'])
    await expectContract('sandbox:reset', ['sandbox', 'reset'])

    const scenario = path.join(temporaryDir(), 'contract.yaml')
    fs.writeFileSync(
      scenario,
      'name: Contract\nsteps:\n  - createPayment:\n      amount: { value: 100, currency: USD }\n      description: Contract\n',
    )
    await expectContract('scenario:run', ['scenario', 'run', scenario])
    // An isolated run names its tenant.
    await expectContract('scenario:run', ['scenario', 'run', scenario, '--isolated'])
    await expectContract('openapi', ['openapi'])
    await expectContract('openapi', ['openapi', '--output', path.join(temporaryDir(), 'openapi.json')])

    const configEnv = isolatedEnv()
    const direct = sandbox.merchants[0]!
    await expectContract(
      'login',
      ['login', '--api-key', direct.apiKey, '--api-secret', direct.apiSecret, '--base-url', sandbox.url],
      configEnv,
    )
    await expectContract('config:set', ['config', 'set', 'baseUrl', sandbox.url], configEnv)
    await expectContract('config:get', ['config', 'get', 'baseUrl'], configEnv)
    await expectContract('config:list', ['config', 'list'], configEnv)
  })

  // Last, so that it sees what the tests above ran.
  it('ran every command that answers once', () => {
    const notRun = Object.keys(COMMAND_FILES).filter(
      (id) => !ran.has(id) && !LONG_RUNNING.includes(id) && !NEEDS_A_DETACHED_SANDBOX.includes(id),
    )
    expect(notRun).toEqual([])
  })
})
