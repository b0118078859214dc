// The Ledger explorer and Clock and state views over real HTTP: what a merchant session sees of
// the ledger (another merchant's transaction or order by URL: 404), the clock forms' refusals
// (bad duration, bad ISO time, bad snapshot name, missing CSRF, a merchant posting: 404), the
// advance form acting once, and a restore that keeps the restoring admin signed in.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { DashboardVisitor } from '../../harness/dashboard-visitor.js'
import { startTestSandbox, type TestSandbox } from '../../harness/sandbox.js'

describe('the Ledger explorer and Clock and state views over HTTP', () => {
  let sandbox: TestSandbox

  beforeAll(async () => {
    sandbox = await startTestSandbox()
  })
  afterAll(() => sandbox.stop())

  const admin = () => DashboardVisitor.admin(sandbox.url, sandbox.admin)
  const merchant = (index: number) => DashboardVisitor.merchant(sandbox.url, sandbox.merchants[index]!)

  /** The Clock page's advance form as rendered, filled with `duration`. */
  async function advanceForm(visitor: DashboardVisitor, duration: string): Promise<Record<string, string>> {
    const page = await visitor.request('/dashboard/clock')
    return { csrf_token: DashboardVisitor.field(page.text, 'csrf_token'), from: DashboardVisitor.field(page.text, 'from'), duration }
  }

  async function paidPayment(client: TestSandbox['direct'], description: string) {
    const created = await client.payments.create({ amount: { value: 1000, currency: 'USD' }, description })
    const paid = await client.sandbox.pay(created.id)
    const tx = await sandbox.context.ledger.getTransaction(sandbox.context.db, paid.stellarTxId!)
    return { payment: { id: paid.id, memo: tx!.memo! }, hash: tx!.hash }
  }

  it('shows an admin the whole ledger: accounts, a paid payment’s transaction with its memo, and its Horizon JSON', async () => {
    const visitor = await admin()
    const { payment, hash } = await paidPayment(sandbox.direct, 'ledger e2e')
    const accounts = await visitor.request('/dashboard/ledger?role=issuer')
    expect(accounts.status).toBe(200)
    expect(accounts.text.match(/data-testid="account-row"/g)).toHaveLength(1)
    const list = await visitor.request('/dashboard/ledger/transactions')
    expect(list.text).toContain(`data-hash="${hash}"`)
    expect(list.text).toContain(payment.memo)
    const detail = await visitor.request(`/dashboard/ledger/transactions/${hash}`)
    expect(detail.status).toBe(200)
    const horizon = /href="(\/horizon\/transactions\/[0-9a-f]{64})" data-testid="horizon-transaction"/.exec(detail.text)
    expect(horizon?.[1]).toBe(`/horizon/transactions/${hash}`)
    const json = await fetch(`${sandbox.url}${horizon![1]}`)
    expect(json.headers.get('content-type')).toMatch(/json/)
    expect(((await json.json()) as { memo: string }).memo).toBe(payment.memo)
  })

  it('pages transactions by position: the next page starts after the last one shown', async () => {
    const visitor = await admin()
    await paidPayment(sandbox.direct, 'page one')
    await paidPayment(sandbox.direct, 'page two')
    const first = await visitor.request('/dashboard/ledger/transactions?limit=1&order=asc')
    const positions = [...first.text.matchAll(/data-position="(\d+)"/g)].map((m) => Number(m[1]))
    expect(positions).toEqual([1])
    const next = /href="([^"]+)" rel="next"/
      .exec(first.text)![1]!
      .replace(/&#(\d+);/g, (_, code: string) => String.fromCharCode(Number(code)))
    expect(next, next).toContain('after=1')
    const second = await visitor.request(next)
    expect([...second.text.matchAll(/data-position="(\d+)"/g)].map((m) => Number(m[1]))).toEqual([2])
  })

  it('shows a merchant only its own account, transactions and orders; another merchant’s by URL is a 404', async () => {
    const { hash: directHash } = await paidPayment(sandbox.direct, 'direct own')
    const ownTx = await sandbox.context.ledger.getTransaction(sandbox.context.db, directHash)
    const { payment: escrowPayment, hash: escrowHash } = await paidPayment(sandbox.escrow, 'escrow other')
    const othersTx = await sandbox.context.ledger.getTransaction(sandbox.context.db, escrowHash)

    const visitor = await merchant(0)
    const accounts = await visitor.request('/dashboard/ledger')
    expect(accounts.text.match(/data-testid="account-row"/g)).toHaveLength(1)
    expect((await visitor.request(`/dashboard/ledger/transactions/${ownTx!.hash}`)).status).toBe(200)
    expect((await visitor.request(`/dashboard/ledger/transactions/${othersTx!.hash}`)).status).toBe(404)
    const list = await visitor.request('/dashboard/ledger/transactions?limit=200')
    expect(list.text).toContain(ownTx!.hash)
    expect(list.text).not.toContain(othersTx!.hash)
    const orders = await visitor.request('/dashboard/ledger/orders')
    expect(orders.text).not.toContain(escrowPayment.id)

    const escrowVisitor = await merchant(1)
    const escrowOrders = await escrowVisitor.request('/dashboard/ledger/orders')
    expect(escrowOrders.text).toContain(escrowPayment.id)
    // An escrow merchant's payment lands on the custody account: its memo makes it the merchant's.
    expect((await escrowVisitor.request(`/dashboard/ledger/transactions/${othersTx!.hash}`)).status).toBe(200)
    expect((await escrowVisitor.request(`/dashboard/ledger/transactions/${ownTx!.hash}`)).status).toBe(404)
    // The Clock and state view is an admin's only.
    expect((await visitor.request('/dashboard/clock')).status).toBe(404)
    const csrf = DashboardVisitor.field(list.text, 'csrf_token')
    expect((await visitor.request('/dashboard/clock/advance', { form: { csrf_token: csrf, duration: '1h', from: '0' } })).status).toBe(404)
  })

  it('answers malformed ledger queries and clock forms with readable 4xx pages, changing nothing', async () => {
    const visitor = await admin()
    const page = await visitor.request('/dashboard/clock')
    expect(page.status).toBe(200)
    const csrf = DashboardVisitor.field(page.text, 'csrf_token')
    const from = DashboardVisitor.field(page.text, 'from')
    const before = await sandbox.admin.sandbox.clock()
    const cases: Array<[string, Record<string, string> | undefined, number]> = [
      ['/dashboard/ledger?role=king', undefined, 400],
      ['/dashboard/ledger/transactions?account=<script>', undefined, 400],
      ['/dashboard/ledger/transactions?after=-1', undefined, 400],
      ['/dashboard/ledger/transactions/zz', undefined, 404],
      ['/dashboard/ledger/orders?escrowPage=0', undefined, 400],
      ['/dashboard/clock/advance', { csrf_token: csrf, from, duration: 'soon' }, 400],
      ['/dashboard/clock/advance', { csrf_token: csrf, from, duration: '1.5s' }, 400],
      ['/dashboard/clock/advance', { csrf_token: csrf, from, duration: '20000d' }, 400],
      ['/dashboard/clock/advance', { csrf_token: csrf, from, duration: '<img src=x onerror=alert(1)>' }, 400],
      ['/dashboard/clock/freeze', { csrf_token: csrf, at: 'next tuesday' }, 400],
      ['/dashboard/clock/freeze', { csrf_token: csrf, at: '2000-01-01T00:00:00Z' }, 400],
      ['/dashboard/clock/snapshots', { csrf_token: csrf, name: '../etc' }, 400],
      ['/dashboard/clock/snapshots', { csrf_token: csrf, name: '' }, 400],
      ['/dashboard/clock/snapshots/restore', { csrf_token: csrf, name: 'nothing-saved', confirm: 'yes' }, 404],
      ['/dashboard/clock/reset', { csrf_token: csrf }, 400],
      ['/dashboard/clock/advance', { from, duration: '1h' }, 403],
      ['/dashboard/clock/freeze', {}, 403],
    ]
    for (const [path, form, status] of cases) {
      const answer = await visitor.request(path, { form })
      expect(answer.status, `${path} ${JSON.stringify(form)}`).toBe(status)
      expect(answer.text).not.toContain('<img src=x')
    }
    expect(await sandbox.admin.sandbox.clock()).toMatchObject({ advancedSeconds: before.advancedSeconds })
  })

  it('advances the clock once per form: a second submit of the same form moves nothing (409)', async () => {
    const visitor = await admin()
    const form = await advanceForm(visitor, '2h')
    const before = (await sandbox.admin.sandbox.clock()).advancedSeconds
    const first = await visitor.request('/dashboard/clock/advance', { form })
    expect(first.status).toBe(303)
    expect(first.location).toContain('done=advanced')
    expect((await visitor.request('/dashboard/clock/advance', { form })).status).toBe(409)
    expect((await sandbox.admin.sandbox.clock()).advancedSeconds).toBe(before + 7200)
  })

  it('advances once when the same form is submitted twice at the same moment', async () => {
    const visitor = await admin()
    const form = await advanceForm(visitor, '1h')
    const before = (await sandbox.admin.sandbox.clock()).advancedSeconds
    const answers = await Promise.all([1, 2, 3].map(() => visitor.request('/dashboard/clock/advance', { form })))
    expect(answers.map((answer) => answer.status).sort()).toEqual([303, 409, 409])
    expect((await sandbox.admin.sandbox.clock()).advancedSeconds).toBe(before + 3600)
  })

  it('restores a snapshot after confirmation and keeps the admin who restored signed in', async () => {
    const visitor = await admin()
    const bystander = await admin()
    const csrf = DashboardVisitor.field((await visitor.request('/dashboard/clock')).text, 'csrf_token')
    // Both sessions are in the snapshot; one opened later is not.
    expect((await visitor.request('/dashboard/clock/snapshots', { form: { csrf_token: csrf, name: 'before-late' } })).status).toBe(303)
    const late = await admin()
    expect((await visitor.request('/dashboard/clock/snapshots', { form: { csrf_token: csrf, name: 'before-late' } })).status).toBe(409)
    const unconfirmed = await visitor.request('/dashboard/clock/snapshots/restore', { form: { csrf_token: csrf, name: 'before-late' } })
    expect(unconfirmed.status).toBe(400)
    // A restorer who signed in after the snapshot (like `late`) stays signed in too.
    const lateCsrf = DashboardVisitor.field((await late.request('/dashboard/clock')).text, 'csrf_token')
    const restored = await late.request('/dashboard/clock/snapshots/restore', {
      form: { csrf_token: lateCsrf, name: 'before-late', confirm: 'yes' },
    })
    expect(restored.status).toBe(303)
    const after = await late.request(restored.location!)
    expect(after.status).toBe(200)
    expect(after.text).toContain('data-done="restored"')
    // Its CSRF token still works.
    expect((await late.request('/dashboard/clock/unfreeze', { form: { csrf_token: lateCsrf } })).status).toBe(303)
    // Sessions in the snapshot come back with it.
    expect((await bystander.request('/dashboard/clock')).status).toBe(200)

    const resetCsrf = DashboardVisitor.field(after.text, 'csrf_token')
    const reset = await late.request('/dashboard/clock/reset', { form: { csrf_token: resetCsrf, confirm: 'yes' } })
    expect(reset.status).toBe(303)
    expect((await late.request('/dashboard/clock')).status).toBe(200)
    // Everyone else is signed out by a reset.
    expect((await bystander.request('/dashboard/clock')).status).toBe(303)
  })
})
