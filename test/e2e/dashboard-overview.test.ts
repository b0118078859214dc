// The Overview over real HTTP: /dashboard lands on it; a merchant session sees its own figures,
// merchant and failed requests only (never another merchant's name, counts or requests); a
// failed API request shows among the last errors; the charts carry their figures as text.
import { parse as parseCookie } from 'cookie'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startTestSandbox, type TestSandbox } from '../../harness/sandbox.js'

class Visitor {
  readonly cookies = new Map<string, string>()
  constructor(private readonly baseUrl: string) {}

  async request(path: string, init: { form?: Record<string, string> } = {}) {
    const headers: Record<string, string> = {}
    if (this.cookies.size > 0) headers.cookie = [...this.cookies].map(([name, value]) => `${name}=${value}`).join('; ')
    if (init.form) headers['content-type'] = 'application/x-www-form-urlencoded'
    const url = path.startsWith('http') ? path : `${this.baseUrl}${path}`
    const response = await fetch(url, {
      method: init.form ? 'POST' : 'GET',
      headers,
      body: init.form ? new URLSearchParams(init.form).toString() : undefined,
      redirect: 'manual',
    })
    for (const line of response.headers.getSetCookie()) {
      const [name, value] = Object.entries(parseCookie(line.split(';')[0]!) as Record<string, string>)[0]!
      if (value === '') this.cookies.delete(name)
      else this.cookies.set(name, value)
    }
    return { status: response.status, location: response.headers.get('location'), text: await response.text() }
  }

  static field(page: string, name: string): string {
    const match = new RegExp(`name="${name}" value="([^"]*)"`).exec(page)
    if (!match) throw new Error(`no ${name} field on the page`)
    return match[1]!
  }
}

describe('the Overview over HTTP', () => {
  let sandbox: TestSandbox

  beforeAll(async () => {
    sandbox = await startTestSandbox()
  })
  afterAll(() => sandbox.stop())

  async function merchant(index: number): Promise<Visitor> {
    const credentials = sandbox.merchants[index]!
    const visitor = new Visitor(sandbox.url)
    const form = await visitor.request('/dashboard/sign-in')
    const signedIn = await visitor.request('/dashboard/sign-in', {
      form: { form_token: Visitor.field(form.text, 'form_token'), api_key: credentials.apiKey, api_secret: credentials.apiSecret },
    })
    expect(signedIn.status).toBe(303)
    return visitor
  }

  it('is where /dashboard lands', async () => {
    const visitor = new Visitor(sandbox.url)
    expect((await visitor.request((await sandbox.admin.sandbox.dashboardLink()).url)).location).toBe('/dashboard')
    const start = await visitor.request('/dashboard')
    expect(start.status).toBe(303)
    expect(start.location).toBe('/dashboard/overview')
    const page = await visitor.request('/dashboard/overview')
    expect(page.status).toBe(200)
    expect(page.text).toContain('data-testid="overview-merchants"')
  })

  it('shows a merchant its own figures and failed requests, nothing of another merchant', async () => {
    const [direct, escrow] = sandbox.merchants
    await sandbox.direct.payments.create({ amount: { value: 500, currency: 'USD' }, description: 'direct one' })
    await sandbox.direct.payments.create({ amount: { value: 600, currency: 'USD' }, description: 'direct two' })
    await sandbox.escrow.payments.create({ amount: { value: 700, currency: 'USD' }, description: 'escrow one' })
    // A failed request of each merchant: the API's 404 for a payment that does not exist.
    await expect(sandbox.direct.payments.get('pt_direct_missing')).rejects.toThrow()
    await expect(sandbox.escrow.payments.get('pt_escrow_missing')).rejects.toThrow()

    const page = (await (await merchant(1)).request('/dashboard/overview')).text
    expect(page).toContain(escrow!.id)
    expect(page).not.toContain(direct!.id)
    expect(page).not.toContain('data-testid="overview-merchants"')
    expect(page).toMatch(/<title id="payments-chart-title">Payments by status: 1 open,/)
    expect(page).toContain('/payments/pt_escrow_missing')
    expect(page).not.toContain('pt_direct_missing')

    const own = (await (await merchant(0)).request('/dashboard/overview')).text
    expect(own).toMatch(/Payments by status: 2 open,/)
    expect(own).toContain('pt_direct_missing')
    expect(own).not.toContain('pt_escrow_missing')
  })
})
