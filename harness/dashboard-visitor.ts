// A browser's cookie jar over plain fetch, as far as the dashboard needs one: name=value pairs
// sent back as set, forms posted urlencoded, redirects not followed (POST-redirect-GET is checked).
import { parse as parseCookie } from 'cookie'
import type { PayboxClient } from '../src/client/paybox-client.js'

export class DashboardVisitor {
  readonly cookies = new Map<string, string>()
  constructor(private readonly baseUrl: string) {}

  async request(path: string, init: { method?: string; form?: Record<string, string>; headers?: Record<string, string> } = {}) {
    const headers: Record<string, string> = { ...init.headers }
    if (this.cookies.size > 0) headers.cookie = [...this.cookies].map(([name, value]) => `${name}=${value}`).join('; ')
    if (init.form) headers['content-type'] = 'application/x-www-form-urlencoded'
    const url = path.startsWith('http') ? path : `${this.baseUrl}${path}`
    const response = await fetch(url, {
      method: init.method ?? (init.form ? 'POST' : 'GET'),
      headers,
      body: init.form ? new URLSearchParams(init.form).toString() : undefined,
      redirect: 'manual',
    })
    for (const line of response.headers.getSetCookie()) {
      const [pair] = line.split(';')
      const [name, value] = Object.entries(parseCookie(pair!))[0]!
      if (value === '' || value === undefined) this.cookies.delete(name)
      else this.cookies.set(name, value)
    }
    return { status: response.status, location: response.headers.get('location'), headers: response.headers, text: await response.text() }
  }

  /** The value of a hidden field on a page. */
  static field(page: string, name: string): string {
    const match = new RegExp(`name="${name}" value="([^"]*)"`).exec(page)
    if (!match) throw new Error(`no ${name} field on the page`)
    return match[1]!
  }

  /** Signed in as admin through a one-time link. */
  static async admin(baseUrl: string, admin: PayboxClient): Promise<DashboardVisitor> {
    const visitor = new DashboardVisitor(baseUrl)
    const { url } = await admin.sandbox.dashboardLink()
    const answer = await visitor.request(url)
    if (answer.status !== 303) throw new Error(`sign-in link answered ${answer.status}`)
    return visitor
  }

  /** Signed in as a merchant with its API key and secret. */
  static async merchant(baseUrl: string, merchant: { apiKey: string; apiSecret: string }): Promise<DashboardVisitor> {
    const visitor = new DashboardVisitor(baseUrl)
    const form = await visitor.request('/dashboard/sign-in')
    const answer = await visitor.request('/dashboard/sign-in', {
      form: { form_token: DashboardVisitor.field(form.text, 'form_token'), api_key: merchant.apiKey, api_secret: merchant.apiSecret },
    })
    if (answer.status !== 303) throw new Error(`merchant sign-in answered ${answer.status}`)
    return visitor
  }
}
