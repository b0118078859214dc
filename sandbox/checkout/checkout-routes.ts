// The hosted checkout behind hostedUrl: the payment page, its sandbox buttons (plain form posts,
// so they work without script) and the outcome page they lead to (POST, then 303 to GET).
// Everything answers HTML in the page's language, errors included; a wrong auth_token is a 404
// that shows nothing of the payment.
import { randomBytes } from 'node:crypto'
import express, { type Request, type RequestHandler, type Response } from 'express'
import type { SandboxContext } from '../context.js'
import type { PaymentRow } from '../db/schema.js'
import { ApiError, notFound } from '../errors.js'
import { clientErrorStatus } from '../http/errors.js'
import { publicLink } from '../public-links.js'
import { statusAt } from '../payments/payment-lifecycle.js'
import { walletUri } from '../payments/payment-resource.js'
import { renderCheckoutPage, renderErrorPage, renderOutcomePage, type CheckoutLinks } from './checkout-page.js'
import { qrCodeDataUrl } from './checkout-qr.js'
import {
  availableActions,
  findCheckoutPayment,
  isCheckoutAction,
  isPayingAction,
  runCheckoutAction,
  type CheckoutAction,
} from './checkout-service.js'
import { CHECKOUT_TEXT, isLang, type Lang } from './checkout-text.js'
import { runRecordingFailures } from '../ledger/failed-transactions.js'
import type { PublicHandlers } from '../http/declared-routes.js'
import { merchantNow } from '../merchants/merchant-time.js'

/** A button's form is two short fields; nothing bigger is read. */
const FORM_LIMIT = '2kb'

/** What a checkout request names, read before anything can fail, so errors render in its language. */
interface CheckoutRequest {
  id: string
  token: unknown
  /** The language asked for, if a valid one was. */
  lang: Lang | undefined
  action?: string
}

const langOf = (payment: PaymentRow, asked: Lang | undefined): Lang => asked ?? (isLang(payment.locale) ? payment.locale : 'en')

const formField = (body: unknown, name: string): unknown =>
  typeof body === 'object' && body !== null ? (body as Record<string, unknown>)[name] : undefined

export function checkoutHandlers(ctx: SandboxContext) {
  const publicOrigin = new URL(ctx.publicUrl).origin

  const checkoutLink = (payment: PaymentRow, lang: Lang) =>
    publicLink(ctx.publicUrl, `/checkout/${payment.id}`, { paymentId: payment.id, auth_token: payment.auth_token, lang })
  const outcomeLink = (payment: PaymentRow, lang: Lang) =>
    publicLink(ctx.publicUrl, `/checkout/${payment.id}/outcome`, { auth_token: payment.auth_token, lang })

  function linksFor(payment: PaymentRow, lang: Lang, page: (payment: PaymentRow, lang: Lang) => string): CheckoutLinks {
    return {
      checkout: checkoutLink(payment, lang),
      languages: { en: page(payment, 'en'), es: page(payment, 'es') },
      action: (action: CheckoutAction) => publicLink(ctx.publicUrl, `/checkout/${payment.id}/actions/${action}`),
      authToken: payment.auth_token,
    }
  }

  /** Sends a page with a fresh CSP nonce: only its own inline style and script may run. */
  function sendPage(res: Response, status: number, render: (nonce: string) => string): void {
    const nonce = randomBytes(16).toString('base64')
    const formTargets = publicOrigin.startsWith('http') ? `'self' ${publicOrigin}` : `'self'`
    res
      .status(status)
      .type('html')
      .set({
        'Cache-Control': 'no-store',
        'Content-Security-Policy': [
          "default-src 'none'",
          `style-src 'nonce-${nonce}'`,
          `script-src 'nonce-${nonce}'`,
          'img-src data:',
          `form-action ${formTargets}`,
          "base-uri 'none'",
          "frame-ancestors 'none'",
        ].join('; '),
        'Referrer-Policy': 'no-referrer',
        'X-Content-Type-Options': 'nosniff',
      })
      .send(render(nonce))
  }

  function seeOther(res: Response, location: string): void {
    res.set({ 'Cache-Control': 'no-store', 'Referrer-Policy': 'no-referrer' }).redirect(303, location)
  }

  /** The one place checkout errors become pages: the status code of the error, text in the page's language. */
  async function sendError(res: Response, request: CheckoutRequest, error: unknown): Promise<void> {
    const status = statusOf(error)
    if (status >= 500) ctx.log(`Unexpected checkout error: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`)
    // Only a caller holding the token learns anything about the payment.
    const payment = status === 404 || status >= 500 ? undefined : await findCheckoutPayment(ctx.db, request.id, request.token)
    const lang = payment ? langOf(payment, request.lang) : (request.lang ?? 'en')
    const t = CHECKOUT_TEXT[lang]
    let message: string
    if (status === 404) message = t.errors.notFound
    else if (status >= 500) message = t.errors.unexpected
    else if (status === 409 && payment) {
      const current = statusAt(payment, await merchantNow(ctx, ctx.db, payment.merchant_id))
      const closed = t.closed[current]
      message = availableActions(current).length === 0 && closed ? `${closed} ${t.errors.cannotPayAgain}` : t.errors.notAllowed
    } else if (status === 400 && isPayingAction(request.action)) {
      message = t.errors.walletRefused
    } else message = t.errors.badRequest
    sendPage(res, status, (nonce) =>
      renderErrorPage({ lang, nonce, message, ...(payment ? { backLink: checkoutLink(payment, lang) } : {}) }),
    )
  }

  /** Runs a handler; whatever it throws is answered as an error page. */
  const htmlPage =
    (read: (req: Request) => CheckoutRequest, handler: (request: CheckoutRequest, res: Response) => Promise<void>): RequestHandler =>
    async (req, res) => {
      const request = read(req)
      try {
        await handler(request, res)
      } catch (error) {
        await sendError(res, request, error)
      }
    }

  const fromQuery = (req: Request): CheckoutRequest => ({
    id: String(req.params.id),
    token: req.query.auth_token,
    lang: isLang(req.query.lang) ? req.query.lang : undefined,
  })

  async function requirePayment(request: CheckoutRequest): Promise<PaymentRow> {
    const payment = await findCheckoutPayment(ctx.db, request.id, request.token)
    if (!payment) throw notFound('No such checkout')
    return payment
  }

  // A form that could not be read (too large, bad encoding) is answered as a page too. Anything
  // else that failed before a handler ran (an undecodable id in the path) is the API's JSON error.
  const formErrors: express.ErrorRequestHandler = (error, req, res, next) => {
    if (!isBodyParserError(error)) {
      next(error)
      return
    }
    const request = { id: '', token: undefined, lang: isLang(req.query.lang) ? req.query.lang : undefined }
    return sendError(res, request, error)
  }

  return {
    getCheckoutPage: htmlPage(fromQuery, async (request, res) => {
      const payment = await requirePayment(request)
      const lang = langOf(payment, request.lang)
      const now = await merchantNow(ctx, ctx.db, payment.merchant_id)
      const status = statusAt(payment, now)
      const uri = walletUri(payment, ctx.identity.usdcIssuer)
      // The QR code is only drawn while the payment can still be paid.
      const qrDataUrl = availableActions(status).length > 0 ? await qrCodeDataUrl(uri) : ''
      const links = linksFor(payment, lang, checkoutLink)
      sendPage(res, 200, (nonce) => renderCheckoutPage({ lang, nonce, payment, status, now, walletUri: uri, qrDataUrl, links }))
    }),

    getCheckoutOutcome: htmlPage(fromQuery, async (request, res) => {
      const payment = await requirePayment(request)
      const lang = langOf(payment, request.lang)
      const status = statusAt(payment, await merchantNow(ctx, ctx.db, payment.merchant_id))
      if (status === 'open') {
        seeOther(res, checkoutLink(payment, lang))
        return
      }
      const links = linksFor(payment, lang, outcomeLink)
      sendPage(res, 200, (nonce) => renderOutcomePage({ lang, nonce, payment, status, links }))
    }),

    runCheckoutAction: [
      express.urlencoded({ extended: false, limit: FORM_LIMIT, parameterLimit: 10 }),
      formErrors,
      htmlPage(
        (req) => {
          const lang = formField(req.body, 'lang')
          return {
            id: String(req.params.id),
            token: formField(req.body, 'auth_token'),
            lang: isLang(lang) ? lang : undefined,
            action: String(req.params.action),
          }
        },
        async (request, res) => {
          const action = request.action ?? ''
          // The token is checked, and the button run, in the transaction that changes the payment.
          const payment = await runRecordingFailures(ctx, async (trx) => {
            const found = await findCheckoutPayment(trx, request.id, request.token)
            if (!found || !isCheckoutAction(action)) throw notFound('No such checkout action')
            return runCheckoutAction(ctx, trx, found, action)
          })
          seeOther(res, outcomeLink(payment, langOf(payment, request.lang)))
        },
      ),
    ],
  } satisfies Partial<PublicHandlers>
}

/** body-parser names what went wrong in `type` ('entity.too.large', 'charset.unsupported', …). */
const isBodyParserError = (error: unknown): boolean =>
  typeof error === 'object' && error !== null && 'type' in error && typeof error.type === 'string'

/** The HTTP status an error stands for: its own for ApiError and body-parser errors, else 500. */
function statusOf(error: unknown): number {
  if (error instanceof ApiError) return error.statusCode
  return clientErrorStatus(error) ?? 500
}
