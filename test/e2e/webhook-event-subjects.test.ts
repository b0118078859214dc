// An event about something other than a payment goes the whole way through the same path as the
// spec's payment events: declared once (EventDeclaration), queued by its record's change writer in
// the change's transaction, sent signed, one at a time and in order per subject, logged, resent.
// The invoice event here exists only in this test: no such event is on the wire (spec 6).
import { describe, expect, it } from 'vitest'
import type { WebhookEventType } from '../../src/api/enumerations.js'
import type { WebhookDelivery } from '../../src/client/types.js'
import { ChangeEffects } from '../../sandbox/db/change-effects.js'
import { runTransaction } from '../../sandbox/db/database.js'
import { recordEventsOf, type EventDeclaration } from '../../sandbox/webhooks/webhook-events.js'
import { sandboxForSuite } from '../../harness/sandbox.js'
import { waitFor } from '../../harness/wait.js'
import { webhookReceiverForSuite } from '../../harness/webhook-receiver.js'

interface TestInvoice {
  id: string
  merchant_id: string
  status: 'open' | 'paid'
  webhook_url: string
  updated_at: number
}

// A real event's name joins WEBHOOK_EVENT_TYPES (src/api/enumerations.ts); these two exist only here.
const INVOICE_CREATED = 'invoice_created' as WebhookEventType
const INVOICE_PAID = 'invoice_paid' as WebhookEventType

const invoiceEvents: EventDeclaration<TestInvoice> = {
  subject: (invoice) => ({ type: 'invoice', id: invoice.id, merchantId: invoice.merchant_id, webhookUrl: invoice.webhook_url }),
  eventFor: (before, after) => (before === undefined ? INVOICE_CREATED : before.status !== after.status ? INVOICE_PAID : undefined),
  payload: (type, invoice) => JSON.stringify({ data: { type, id: invoice.id, status: invoice.status } }, null, 2),
  changedAt: (invoice) => invoice.updated_at,
}

describe('events about other subjects than payments', () => {
  const sandbox = sandboxForSuite({ webhookPollMs: 20 })
  const receiver = webhookReceiverForSuite(() => sandbox.merchants[0]!.apiSecret)
  const invoices = new ChangeEffects<TestInvoice>()
  invoices.onChange(recordEventsOf(invoiceEvents))

  const invoice = (id: string): TestInvoice => ({
    id,
    merchant_id: sandbox.merchants[0]!.id,
    status: 'open',
    webhook_url: receiver.url,
    updated_at: Date.UTC(2027, 0, 1),
  })
  /** Creates the invoice and pays it, each change in its own transaction, as a change writer would. */
  const createAndPay = async (created: TestInvoice) => {
    await runTransaction(sandbox.context.db, (trx) => invoices.follow(trx, undefined, created))
    // A change that is no event queues nothing.
    await runTransaction(sandbox.context.db, (trx) => invoices.follow(trx, created, { ...created }))
    await runTransaction(sandbox.context.db, (trx) => invoices.follow(trx, created, { ...created, status: 'paid' }))
  }
  const bodiesOf = (id: string) =>
    receiver.received.map((r) => ({ raw: r.raw.toString('utf8'), verified: r.verified })).filter((r) => r.raw.includes(`"id": "${id}"`))
  const logs = (query: Record<string, string | number> = {}) =>
    sandbox.direct.request<{ items: WebhookDelivery[] }>('GET', `/merchants/${sandbox.merchants[0]!.id}/webhook-logs`, { query })

  it('sends an invoice event, signed, logs it without a checkout_id, and resends it for the same subject', async () => {
    await createAndPay(invoice('inv_test_1'))
    const sent = await waitFor('both invoice events', () => (bodiesOf('inv_test_1').length === 2 ? bodiesOf('inv_test_1') : undefined))
    expect(sent.map((r) => r.verified)).toEqual([true, true])
    expect(sent.map((r) => JSON.parse(r.raw).data.type)).toEqual(['invoice_created', 'invoice_paid'])
    expect(sent[0]!.raw).toBe(invoiceEvents.payload(INVOICE_CREATED, invoice('inv_test_1')))

    const entries = await waitFor('both logged', async () => {
      const { items } = await logs({ limit: 100 })
      const mine = items.filter((item) => (item.event_type as string).startsWith('invoice_'))
      return mine.length === 2 && mine.every((item) => item.status === 'success') ? mine.reverse() : undefined
    })
    expect(entries.map((e) => e.checkout_id)).toEqual([null, null])
    // The log filtered by payment is keyed by payment: an invoice with the same id is not one.
    expect((await logs({ checkout_id: 'inv_test_1' })).items).toEqual([])

    const resent = await sandbox.direct.request<WebhookDelivery>(
      'POST',
      `/merchants/${sandbox.merchants[0]!.id}/webhook-logs/${entries[0]!.id}/resend`,
    )
    expect(resent).toMatchObject({ status: 'success', resend_of: entries[0]!.id, checkout_id: null, attempt_count: 2 })
    const row = await sandbox.context.db
      .selectFrom('webhook_deliveries')
      .select(['subject_type', 'subject_id'])
      .where('id', '=', resent.id)
      .executeTakeFirstOrThrow()
    expect(row).toEqual({ subject_type: 'invoice', subject_id: 'inv_test_1' })
  })

  it("keeps one delivery of a subject on the wire at a time, in order, while other subjects' go", async () => {
    receiver.answer = (request) => (request.raw.toString('utf8').includes('"inv_slow"') ? 'hang' : { status: 200, body: 'ok' })
    await createAndPay(invoice('inv_slow'))
    await waitFor('the slow invoice created event on the wire', () => bodiesOf('inv_slow').length === 1 || undefined)
    // Another subject's two events go through while the slow one's first is still unanswered …
    await createAndPay(invoice('inv_quick'))
    await waitFor('the quick invoice both events', () => bodiesOf('inv_quick').length === 2 || undefined)
    // … and the slow one's second waits for its first.
    expect(bodiesOf('inv_slow').map((r) => JSON.parse(r.raw).data.type)).toEqual(['invoice_created'])
    receiver.answer = () => ({ status: 200, body: 'ok' })
    receiver.releaseHanging()
    const slow = await waitFor('the slow invoice second event', () =>
      bodiesOf('inv_slow').length === 2 ? bodiesOf('inv_slow') : undefined,
    )
    expect(slow.map((r) => JSON.parse(r.raw).data.type)).toEqual(['invoice_created', 'invoice_paid'])
  })
})
