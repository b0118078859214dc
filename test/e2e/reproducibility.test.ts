// --seed plus a frozen clock make a run reproducible: two fresh sandboxes given the same CLI
// commands produce the same ids, memos, ledger transactions, invoice numbers and webhook bodies.
import { afterEach, describe, expect, it } from 'vitest'
import type { LedgerTransaction, Page, Payment, WebhookDelivery } from '../../src/client/types.js'
import type { RunningSandbox } from '../../sandbox/server.js'
import { isolatedEnv, runCliJson, type CliEnv } from '../../harness/cli.js'
import { startTestSandbox } from '../../harness/sandbox.js'
import { waitFor } from '../../harness/wait.js'
import { startWebhookReceiver, type WebhookReceiver } from '../../harness/webhook-receiver.js'

// Ahead of the wall clock: the CLI checks a due date against this computer's clock.
const FROZEN_AT = Date.UTC(2027, 0, 1)
const started: RunningSandbox[] = []
const receivers: WebhookReceiver[] = []
afterEach(async () => {
  await Promise.all(started.splice(0).map((sandbox) => sandbox.stop()))
  await Promise.all(receivers.splice(0).map((receiver) => receiver.close()))
})

async function freshSandbox(): Promise<RunningSandbox> {
  // A fresh database on the suite's backend (a file, or a PostgreSQL database).
  const sandbox = await startTestSandbox({
    seed: 'reproducible',
    frozenAt: FROZEN_AT,
    // Links carry the base URL: the same one for both, whatever their ports.
    publicUrl: 'http://sandbox.test',
  })
  started.push(sandbox)
  return sandbox
}

/** The same commands against one sandbox; everything they print as JSON. */
async function script(sandbox: RunningSandbox, webhookUrl: string): Promise<unknown[]> {
  const [merchant] = sandbox.merchants
  const env: CliEnv = isolatedEnv({
    PAYBOX_BASE_URL: `http://127.0.0.1:${sandbox.port}`,
    PAYBOX_API_KEY: merchant!.apiKey,
    PAYBOX_API_SECRET: merchant!.apiSecret,
    PAYBOX_ADMIN_TOKEN: sandbox.identity.adminToken,
  })
  const cli = async <T>(...argv: string[]): Promise<T> => {
    const result = await runCliJson<T>(argv, env)
    expect(result.exitCode, `paybox ${argv.join(' ')}: ${result.stderr}`).toBe(0)
    return result.json
  }
  const outputs: unknown[] = []
  const first = await cli<Payment>(
    'payments',
    'create',
    '--amount',
    '12.50',
    '--currency',
    'EUR',
    '--description',
    'Order 1',
    '--webhook-url',
    webhookUrl,
    '--metadata',
    'order=1',
  )
  outputs.push(first, await cli('payments', 'pay', first.id, '--underpay'), await cli('payments', 'accept-underpayment', first.id))
  const second = await cli<Payment>('payments', 'create', '--amount', '3.00', '--description', 'Order 2', '--webhook-url', webhookUrl)
  outputs.push(second, await cli('payments', 'pay', second.id), await cli('payments', 'refund', second.id, '--amount', '1.00'))
  outputs.push(
    await cli(
      'invoices',
      'create',
      '--currency',
      'USD',
      '--item',
      'Widget;2;10.00',
      '--customer-email',
      'buyer@example.test',
      '--due',
      '2027-03-01',
    ),
  )
  // Deliveries finish in the background, stamped with the frozen clock; the clock moves only once
  // none is pending, or a delivery attempted after the advance would carry the later time.
  const settled = async (): Promise<WebhookDelivery[]> =>
    waitFor('the deliveries to finish', async () => {
      const page = await cli<Page<WebhookDelivery>>('webhooks', 'list', '--limit', '100')
      return page.items.length >= 6 && page.items.every((d) => d.status !== 'pending') && page.items
    })
  await settled()
  outputs.push(await cli('sandbox', 'clock', 'advance', '1h'))
  outputs.push(await cli<{ items: LedgerTransaction[] }>('ledger', 'transactions', '--limit', '50'))
  // Their log entries and exact bodies, including any the advance queued.
  const deliveries = await settled()
  for (const delivery of deliveries) {
    const full = await cli<WebhookDelivery>('webhooks', 'get', delivery.id)
    // How long the receiver took is wall-clock time: the one field that differs.
    outputs.push({ ...full, duration_ms: undefined })
  }
  return outputs
}

describe('reproducible runs', () => {
  it('gives identical outputs for the same commands on two fresh sandboxes with --seed and a frozen clock', async () => {
    const receiver = await startWebhookReceiver('unused')
    receivers.push(receiver)
    const first = await script(await freshSandbox(), `${receiver.url}/hooks`)
    const second = await script(await freshSandbox(), `${receiver.url}/hooks`)
    expect(second).toEqual(first)

    // What the comparison covered, so it cannot pass by comparing nothing.
    const [payment, underpaid, accepted] = first as Payment[]
    expect(payment!.id).toMatch(/^pt_[0-9a-f]{32}$/)
    expect(payment!.createdAt).toBe(new Date(FROZEN_AT).toISOString())
    expect(underpaid!.status).toBe('underpaid')
    expect(accepted!.status).toBe('paid')
    expect(accepted!.stellarTxId).toMatch(/^[0-9a-f]{64}$/)
    const invoice = first[6] as { invoice_number: string }
    expect(invoice.invoice_number).toEqual(expect.any(String))
    const ledger = first[8] as { items: LedgerTransaction[] }
    expect(ledger.items.filter((tx) => tx.memo !== null).length).toBeGreaterThanOrEqual(3)
    const bodies = first.slice(9) as WebhookDelivery[]
    expect(bodies.length).toBeGreaterThanOrEqual(6)
    expect(bodies.every((d) => d.status === 'success' && d.request_payload!.length > 0)).toBe(true)
    // Both runs really delivered, the same bytes each time (different payments' deliveries
    // go in parallel, so only their arrival order may differ).
    const payloads = receiver.received.map((r) => r.raw.toString('utf8'))
    expect(payloads.slice(payloads.length / 2).sort()).toEqual(payloads.slice(0, payloads.length / 2).sort())
  })
})
