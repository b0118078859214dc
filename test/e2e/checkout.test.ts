import jsQR from 'jsqr'
import { PNG } from 'pngjs'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Payment } from '../../src/client/types.js'
import { ManualClock } from '../../sandbox/clock.js'
import { startTestSandbox, type TestSandbox } from '../../harness/sandbox.js'

const START = Date.UTC(2026, 10, 21, 12, 0, 0)
const MINUTE = 60_000

interface Page {
  status: number
  headers: Headers
  html: string
}

const tokenOf = (payment: Payment): string => new URL(payment.hostedUrl).searchParams.get('auth_token')!

/** The hosted page, optionally with another token or language than hostedUrl's. */
async function openCheckout(payment: Payment, query: { auth_token?: string | null; lang?: string } = {}): Promise<Page> {
  const url = new URL(payment.hostedUrl)
  if (query.auth_token === null) url.searchParams.delete('auth_token')
  else if (query.auth_token !== undefined) url.searchParams.set('auth_token', query.auth_token)
  if (query.lang !== undefined) url.searchParams.set('lang', query.lang)
  return read(await fetch(url, { redirect: 'manual' }))
}

/** Presses a sandbox button as the browser would: a urlencoded form post, redirects not followed. */
async function press(sandbox: TestSandbox, payment: Payment, action: string, fields: Record<string, string> = {}): Promise<Page> {
  const body = new URLSearchParams({ auth_token: tokenOf(payment), lang: 'en', ...fields })
  const response = await fetch(`${sandbox.url}/checkout/${payment.id}/actions/${action}`, { method: 'POST', body, redirect: 'manual' })
  return read(response)
}

async function read(response: Response): Promise<Page> {
  return { status: response.status, headers: response.headers, html: await response.text() }
}

/** Follows a 303 from a button to the outcome page. */
async function outcomeOf(page: Page): Promise<Page> {
  expect(page.status).toBe(303)
  return read(await fetch(page.headers.get('location')!, { redirect: 'manual' }))
}

const testIdText = (html: string, testId: string): string | undefined => new RegExp(`data-testid="${testId}"[^>]*>([^<]*)<`).exec(html)?.[1]

const unescapeHtml = (text: string): string => text.replace(/&#(\d+);/g, (_match, code: string) => String.fromCharCode(Number(code)))

/** Decodes the QR code image on the page, as a phone camera would read it. */
function decodeQr(html: string): string | undefined {
  const src = /<img[^>]*data-testid="qr"[^>]*src="data:image\/png;base64,([^"]+)"/.exec(html)?.[1]
  if (!src) return undefined
  const png = PNG.sync.read(Buffer.from(unescapeHtml(src), 'base64'))
  // jsqr is CommonJS with its function on `default` as well, which is what NodeNext types see.
  return jsQR.default(new Uint8ClampedArray(png.data), png.width, png.height)?.data
}

describe('hosted checkout', () => {
  let sandbox: TestSandbox
  const clock = new ManualClock(START)

  // No background sweep: a payment past its expiresAt stays open in the database, so these
  // tests see the checkout's own expiry rule.
  beforeAll(async () => {
    sandbox = await startTestSandbox({ clock, dueWorkIntervalMs: 0 })
  })
  afterAll(() => sandbox.stop())

  const createPayment = (overrides: Partial<Parameters<TestSandbox['direct']['payments']['create']>[0]> = {}) =>
    sandbox.direct.payments.create({
      amount: { value: 1250, currency: 'EUR' },
      description: 'Order #2001',
      redirectUrl: 'https://shop.example/thanks',
      cancelUrl: 'https://shop.example/cart',
      ...overrides,
    })

  describe('the page', () => {
    let payment: Payment
    beforeAll(async () => {
      payment = await createPayment({ description: 'Mugs <2> & "tea"' })
    })

    it('shows the merchant, the description, both amounts, the status and the time left on the business clock', async () => {
      const page = await openCheckout(payment)
      expect(page.status).toBe(200)
      expect(page.headers.get('content-type')).toMatch(/^text\/html/)
      expect(testIdText(page.html, 'merchant')).toBe('Acme Store')
      expect(unescapeHtml(testIdText(page.html, 'description')!)).toBe('Mugs <2> & "tea"')
      expect(page.html).not.toContain('Mugs <2>')
      expect(testIdText(page.html, 'amount')).toBe('€12.50')
      expect(testIdText(page.html, 'usdc')).toBe('13.5 USDC')
      expect(page.html).toMatch(/data-testid="status" data-status="open">Awaiting payment</)
      expect(page.html).toContain('data-seconds-left="1800"')
      expect(testIdText(page.html, 'time-left')).toBe('30:00')

      clock.advance(12 * MINUTE + 30_000)
      const later = await openCheckout(payment)
      expect(testIdText(later.html, 'time-left')).toBe('17:30')
    })

    it('shows the wallet URI as text and as a QR code image that decodes to exactly the qrCode URI', async () => {
      const page = await openCheckout(payment)
      expect(unescapeHtml(testIdText(page.html, 'wallet-uri')!)).toBe(payment.qrCode)
      expect(decodeQr(page.html)).toBe(payment.qrCode)
    })

    it('prices the currency with its own symbol and precision', async () => {
      const yen = await createPayment({ amount: { value: 1500, currency: 'JPY' } })
      const page = await openCheckout(yen)
      expect(testIdText(page.html, 'amount')).toBe('¥1500')
      expect(testIdText(page.html, 'usdc')).toBe('10.05 USDC')
    })

    it('is not cached, allows only its own nonce-tagged style and script, and sends no referrer', async () => {
      const page = await openCheckout(payment)
      expect(page.headers.get('cache-control')).toBe('no-store')
      expect(page.headers.get('referrer-policy')).toBe('no-referrer')
      const csp = page.headers.get('content-security-policy')!
      const nonce = /script-src 'nonce-([A-Za-z0-9+/=]+)'/.exec(csp)?.[1]
      expect(nonce).toBeDefined()
      expect(csp).toContain("default-src 'none'")
      expect(csp).toContain(`style-src 'nonce-${nonce}'`)
      expect(csp).toContain('img-src data:')
      expect(csp).toContain("frame-ancestors 'none'")
      expect(csp).not.toContain('unsafe-inline')
      const nonceOf = (tag: string) => unescapeHtml(new RegExp(`<${tag} nonce="([^"]+)">`).exec(page.html)?.[1] ?? '')
      expect(nonceOf('style')).toBe(nonce)
      expect(nonceOf('script')).toBe(nonce)
      expect(page.html.match(/<script/g)).toHaveLength(1)
      expect(page.html).not.toMatch(/\son\w+=|style="|src="http/)

      const again = await openCheckout(payment)
      expect(again.headers.get('content-security-policy')).not.toBe(csp)
    })

    it('speaks the payment locale by default, and the language asked for with lang', async () => {
      const spanish = await createPayment({ locale: 'es' })
      const page = await openCheckout(spanish, { lang: '' })
      expect(page.html).toContain('<html lang="es">')
      const strings = ['Importe', 'Pagar en USDC', 'Pendiente de pago', 'Tiempo restante', 'Entorno de pruebas']
      const buttons = ['Pagar el total', 'Pagar una parte', 'Pagar de más', 'Dejar que falle', 'Cancelar']
      for (const text of [...strings, ...buttons]) expect(page.html).toContain(text)
      expect(page.html).not.toContain('Pay in full')

      const english = await openCheckout(spanish, { lang: 'en' })
      expect(english.html).toContain('<html lang="en">')
      expect(english.html).toContain('Pay in full')
      expect((await openCheckout(payment, { lang: 'es' })).html).toContain('Pagar el total')
    })

    it('answers a wrong or missing token, or an unknown payment, with a 404 page showing nothing of the payment', async () => {
      const pages = [
        await openCheckout(payment, { auth_token: '0'.repeat(32) }),
        await openCheckout(payment, { auth_token: null }),
        await read(await fetch(`${sandbox.url}/checkout/pt_${'0'.repeat(32)}?auth_token=${tokenOf(payment)}`)),
        await read(await fetch(`${sandbox.url}/checkout/${payment.id}/outcome?auth_token=nope`)),
      ]
      for (const page of pages) {
        expect(page.status).toBe(404)
        expect(page.headers.get('content-type')).toMatch(/^text\/html/)
        expect(page.headers.get('cache-control')).toBe('no-store')
        expect(testIdText(page.html, 'error')).toBe('This payment link is not valid.')
        for (const secret of ['Mugs', 'Acme', '12.50', '13.5', 'web+stellar', tokenOf(payment), 'data-testid="actions"']) {
          expect(page.html).not.toContain(secret)
        }
      }
      const spanish = await openCheckout(payment, { auth_token: 'x', lang: 'es' })
      expect(testIdText(spanish.html, 'error')).toBe('Este enlace de pago no es válido.')
    })
  })

  describe('the sandbox buttons', () => {
    it('pay in full: the payment is paid and the outcome sends the customer to redirectUrl', async () => {
      const payment = await createPayment()
      const pressed = await press(sandbox, payment, 'pay-full')
      expect(pressed.status).toBe(303)
      expect(pressed.headers.get('location')).toBe(`${sandbox.url}/checkout/${payment.id}/outcome?auth_token=${tokenOf(payment)}&lang=en`)

      const after = await sandbox.direct.payments.get(payment.id)
      expect(after).toMatchObject({ status: 'paid', amount_paid: 1250 })
      expect(after.stellarTxId).toMatch(/^[0-9a-f]{64}$/)

      const outcome = await outcomeOf(pressed)
      expect(outcome.status).toBe(200)
      expect(outcome.html).toMatch(/data-outcome="paid">Payment received. Thank you!</)
      expect(outcome.html).toContain('<meta http-equiv="refresh" content="3;url=https://shop.example/thanks">')
      expect(outcome.html).toMatch(/data-testid="return-link" href="https:\/\/shop.example\/thanks">Return to Acme Store</)
      expect(outcome.html).toContain(after.stellarTxId)
    })

    it('pay in full without a redirectUrl: the outcome page is the confirmation', async () => {
      const payment = await sandbox.direct.payments.create({ amount: { value: 500, currency: 'USD' }, description: 'No return' })
      const outcome = await outcomeOf(await press(sandbox, payment, 'pay-full'))
      expect(outcome.html).toContain('data-outcome="paid"')
      expect(outcome.html).toContain('data-testid="confirmation"')
      expect(outcome.html).not.toContain('http-equiv="refresh"')
    })

    it('pay part: half of what remains, the outcome shows what is left and leads back to pay the rest', async () => {
      const payment = await createPayment()
      const outcome = await outcomeOf(await press(sandbox, payment, 'pay-part'))
      expect(await sandbox.direct.payments.get(payment.id)).toMatchObject({ status: 'underpaid', amount_paid: 625 })
      expect(outcome.html).toMatch(/data-outcome="underpaid">Part of the payment was received: €6.25 is still to pay.</)
      expect(testIdText(outcome.html, 'remaining')).toBe('€6.25 (6.75 USDC)')
      expect(outcome.html).not.toContain('http-equiv="refresh"')
      const payRest = unescapeHtml(/data-testid="pay-rest" href="([^"]+)"/.exec(outcome.html)![1]!)
      expect(payRest).toBe(payment.hostedUrl)

      // The checkout page of an underpaid payment offers the rest, but no cancel.
      const page = await openCheckout(payment)
      expect(page.html).toContain('data-status="underpaid"')
      expect(page.html).toMatch(/data-testid="action-pay-full">Pay in full<span class="detail">€6.25</)
      expect(page.html).toMatch(/data-testid="action-pay-part">Pay part<span class="detail">€3.12</)
      expect(page.html).not.toContain('data-testid="action-cancel"')
      expect(page.html).not.toContain('data-testid="time-left"')

      await press(sandbox, payment, 'pay-part')
      expect(await sandbox.direct.payments.get(payment.id)).toMatchObject({ status: 'underpaid', amount_paid: 937 })
      await press(sandbox, payment, 'pay-full')
      expect(await sandbox.direct.payments.get(payment.id)).toMatchObject({ status: 'paid', amount_paid: 1250 })
    })

    it('pay part is not offered when it could only pay in full (one unit left), and pressing it anyway pays nothing', async () => {
      const payment = await createPayment({ amount: { value: 1, currency: 'JPY' } })
      const page = await openCheckout(payment)
      expect(page.html).toContain('data-testid="action-pay-full"')
      expect(page.html).not.toContain('data-testid="action-pay-part"')
      expect((await press(sandbox, payment, 'pay-part')).status).toBe(409)
      expect(await sandbox.direct.payments.get(payment.id)).toMatchObject({ status: 'open', amount_paid: 0 })
    })

    it('overpay: what remains plus 10% of the amount, at least one unit more', async () => {
      const payment = await createPayment()
      const outcome = await outcomeOf(await press(sandbox, payment, 'overpay'))
      expect(await sandbox.direct.payments.get(payment.id)).toMatchObject({ status: 'paid', amount_paid: 1375 })
      expect(outcome.html).toContain('data-outcome="paid"')
      expect(testIdText(outcome.html, 'amount-paid')).toBe('€13.75 (14.85 USDC)')

      const small = await createPayment({ amount: { value: 3, currency: 'JPY' } })
      await press(sandbox, small, 'overpay')
      expect(await sandbox.direct.payments.get(small.id)).toMatchObject({ status: 'paid', amount_paid: 4 })
    })

    it('let it fail: the payment fails as declined by the customer wallet', async () => {
      const payment = await createPayment()
      const outcome = await outcomeOf(await press(sandbox, payment, 'fail', { lang: 'es' }))
      const after = await sandbox.direct.payments.get(payment.id)
      expect(after.status).toBe('failed')
      expect(after.history.at(-1)?.description).toContain('customer wallet declined')
      expect(outcome.html).toMatch(/data-outcome="failed">El pago ha fallado.</)
      expect(outcome.html).not.toContain('http-equiv="refresh"')
    })

    it('cancel: the payment is canceled and the outcome sends the customer to cancelUrl', async () => {
      const payment = await createPayment()
      const outcome = await outcomeOf(await press(sandbox, payment, 'cancel'))
      expect((await sandbox.direct.payments.get(payment.id)).status).toBe('canceled')
      expect(outcome.html).toContain('data-outcome="canceled"')
      expect(outcome.html).toContain('<meta http-equiv="refresh" content="3;url=https://shop.example/cart">')
    })

    it('keeps the language of the page through the redirect', async () => {
      const payment = await createPayment()
      const pressed = await press(sandbox, payment, 'pay-part', { lang: 'es' })
      expect(new URL(pressed.headers.get('location')!).searchParams.get('lang')).toBe('es')
      expect((await outcomeOf(pressed)).html).toContain('Pagar el resto')
    })

    it('changes nothing for a wrong token, a missing token or an unknown action, and answers 404', async () => {
      const payment = await createPayment()
      const refused = [
        await press(sandbox, payment, 'pay-full', { auth_token: '0'.repeat(32) }),
        await read(
          await fetch(`${sandbox.url}/checkout/${payment.id}/actions/pay-full`, {
            method: 'POST',
            body: new URLSearchParams({ lang: 'en' }),
          }),
        ),
        await read(
          await fetch(`${sandbox.url}/checkout/${payment.id}/actions/pay-full?auth_token=${tokenOf(payment)}`, {
            method: 'POST',
            headers: { 'content-type': 'application/json' },
            body: JSON.stringify({ auth_token: tokenOf(payment) }),
          }),
        ),
        await press(sandbox, payment, 'refund-everything'),
      ]
      for (const page of refused) {
        expect(page.status).toBe(404)
        expect(testIdText(page.html, 'error')).toBe('This payment link is not valid.')
        expect(page.html).not.toContain('Order #2001')
      }
      const after = await sandbox.direct.payments.get(payment.id)
      expect(after).toMatchObject({ status: 'open', amount_paid: 0, updatedAt: payment.updatedAt })
      expect(after.history).toEqual(payment.history)
    })
  })

  describe('payments that can no longer be paid', () => {
    const unchanged = async (payment: Payment) => {
      const after = await sandbox.direct.payments.get(payment.id)
      expect(after.history).toEqual(payment.history)
      expect(after.amount_paid).toBe(payment.amount_paid)
      expect(after.status).toBe(payment.status)
      return after
    }

    it('an expired payment shows expired, no buttons and no QR code; every button answers 409 and changes nothing', async () => {
      const payment = await createPayment()
      const expired = await sandbox.direct.request<Payment>('POST', `/sandbox/payments/${payment.id}/expire`)
      expect(expired.status).toBe('expired')

      const page = await openCheckout(payment)
      expect(page.status).toBe(200)
      expect(page.html).toMatch(/data-testid="status" data-status="expired">Expired</)
      expect(testIdText(page.html, 'notice')).toBe('This payment has expired.')
      for (const absent of ['data-testid="actions"', 'data-testid="qr"', '<form', 'data-testid="time-left"']) {
        expect(page.html).not.toContain(absent)
      }

      for (const action of ['pay-full', 'pay-part', 'overpay', 'fail', 'cancel']) {
        const refused = await press(sandbox, payment, action)
        expect(refused.status).toBe(409)
        expect(refused.headers.get('content-type')).toMatch(/^text\/html/)
        expect(testIdText(refused.html, 'error')).toBe('This payment has expired. It cannot be paid again.')
      }
      await unchanged(expired)
    })

    it('an open payment whose expiresAt has passed on the business clock is expired for the checkout too', async () => {
      const payment = await createPayment({ expiresInHours: 1 })
      clock.advance(61 * MINUTE)
      const page = await openCheckout(payment)
      expect(page.html).toContain('data-status="expired"')
      expect(page.html).not.toContain('<form')

      const refused = await press(sandbox, payment, 'pay-full', { lang: 'es' })
      expect(refused.status).toBe(409)
      expect(testIdText(refused.html, 'error')).toBe('Este pago ha caducado. No se puede volver a pagar.')
      await unchanged(payment)
    })

    it('a paid, failed or canceled payment shows its state without buttons and refuses to be paid again', async () => {
      const paid = await createPayment()
      await press(sandbox, paid, 'pay-full')
      const failed = await createPayment()
      await press(sandbox, failed, 'fail')
      const canceled = await createPayment()
      await press(sandbox, canceled, 'cancel')

      for (const [payment, status, notice] of [
        [paid, 'paid', 'This payment has been paid.'],
        [failed, 'failed', 'This payment failed.'],
        [canceled, 'canceled', 'This payment was canceled.'],
      ] as const) {
        const before = await sandbox.direct.payments.get(payment.id)
        const page = await openCheckout(payment)
        expect(page.html).toContain(`data-status="${status}"`)
        expect(testIdText(page.html, 'notice')).toBe(notice)
        expect(page.html).not.toContain('<form')
        expect(page.html).not.toContain('data-testid="qr"')

        const refused = await press(sandbox, payment, 'pay-full')
        expect(refused.status).toBe(409)
        expect(testIdText(refused.html, 'error')).toBe(`${notice} It cannot be paid again.`)
        expect(refused.html).toContain('data-testid="back-to-payment"')
        await unchanged(before)
      }
    })

    it('a customer cannot cancel after paying part: 409 in the page language, not JSON', async () => {
      const payment = await createPayment()
      await press(sandbox, payment, 'pay-part')
      const before = await sandbox.direct.payments.get(payment.id)
      const refused = await press(sandbox, payment, 'cancel', { lang: 'es' })
      expect(refused.status).toBe(409)
      expect(refused.headers.get('content-type')).toMatch(/^text\/html/)
      expect(testIdText(refused.html, 'error')).toBe('Esto no se puede hacer con el pago en su estado actual.')
      await unchanged(before)
    })
  })

  describe('errors', () => {
    it('a payment the customer wallet cannot afford is a 400 page, not a stack trace', async () => {
      // Every customer wallet holds 1,000,000 USDC.
      const payment = await createPayment({ amount: { value: 200_000_000, currency: 'USD' } })
      const refused = await press(sandbox, payment, 'pay-full')
      expect(refused.status).toBe(400)
      expect(testIdText(refused.html, 'error')).toBe('The customer wallet could not make the payment.')
      expect(refused.html).not.toMatch(/at .*\.ts|statusCode/)
      expect((await sandbox.direct.payments.get(payment.id)).status).toBe('open')
    })

    it('a form body over the limit is a 413 page', async () => {
      const payment = await createPayment()
      const refused = await press(sandbox, payment, 'pay-full', { padding: 'x'.repeat(5000) })
      expect(refused.status).toBe(413)
      expect(refused.headers.get('content-type')).toMatch(/^text\/html/)
      expect(testIdText(refused.html, 'error')).toBe('The request was not valid.')
      expect((await sandbox.direct.payments.get(payment.id)).status).toBe('open')
    })
  })
})
