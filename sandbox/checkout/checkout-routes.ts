// The hosted payment page behind hostedUrl. It shows what the customer is asked to pay and the
// wallet URI; a wrong auth_token gets an error page instead of the payment.
import { Router } from 'express'
import { USDC_SCALE, formatDecimalShort, minorToMajorUnits } from '../../src/money.js'
import { secretsMatch } from '../../src/signing.js'
import type { SandboxContext } from '../context.js'
import { findCurrency } from '../currencies/currency-table.js'
import type { PaymentRow } from '../db/schema.js'
import { findPaymentById } from '../payments/payment-repository.js'
import { walletUri } from '../payments/payment-resource.js'

const TEXT = {
  en: { title: 'Pay', amount: 'Amount', usdc: 'Pay in USDC', status: 'Status', expires: 'Expires', wallet: 'Wallet payment URI', notFound: 'This payment link is not valid.' },
  es: { title: 'Pagar', amount: 'Importe', usdc: 'Pagar en USDC', status: 'Estado', expires: 'Caduca', wallet: 'URI de pago para billetera', notFound: 'Este enlace de pago no es válido.' },
} as const

const escapeHtml = (text: string): string =>
  text.replace(/[&<>"']/g, (char) => `&#${char.charCodeAt(0)};`)

function page(lang: 'en' | 'es', title: string, body: string): string {
  return `<!doctype html><html lang="${lang}"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>${escapeHtml(title)}</title><style>body{font-family:system-ui,sans-serif;max-width:32rem;margin:3rem auto;padding:0 1rem;color:#1a1a2e}dt{color:#666;font-size:.85rem}dd{margin:0 0 1rem}code{word-break:break-all;font-size:.8rem}</style></head><body>${body}</body></html>`
}

function renderPayment(payment: PaymentRow, lang: 'en' | 'es', usdcIssuer: string): string {
  const t = TEXT[lang]
  const currency = findCurrency(payment.amount_currency)
  const amount = `${minorToMajorUnits(payment.amount_value, currency?.precision ?? 2)} ${payment.amount_currency}`
  return page(
    lang,
    `${t.title} ${payment.merchant_name}`,
    `<h1 data-testid="merchant">${escapeHtml(payment.merchant_name)}</h1>
<p data-testid="description">${escapeHtml(payment.description)}</p>
<dl>
<dt>${t.amount}</dt><dd data-testid="amount">${escapeHtml(amount)}</dd>
<dt>${t.usdc}</dt><dd data-testid="usdc">${formatDecimalShort(BigInt(payment.usdc_amount), USDC_SCALE)} USDC</dd>
<dt>${t.status}</dt><dd data-testid="status">${escapeHtml(payment.status)}</dd>
<dt>${t.expires}</dt><dd data-testid="expires"><time datetime="${new Date(payment.expires_at).toISOString()}">${new Date(payment.expires_at).toISOString()}</time></dd>
<dt>${t.wallet}</dt><dd><code data-testid="wallet-uri">${escapeHtml(walletUri(payment, usdcIssuer))}</code></dd>
</dl>`,
  )
}

export function checkoutRoutes(ctx: SandboxContext): Router {
  return Router().get('/checkout/:id', async (req, res) => {
    const lang = req.query.lang === 'es' ? 'es' : 'en'
    const payment = req.params.id.length <= 64 ? await findPaymentById(ctx.db, req.params.id) : undefined
    res.type('html').set('Cache-Control', 'no-store')
    if (!payment || !secretsMatch(payment.auth_token, req.query.auth_token)) {
      res.status(404).send(page(lang, TEXT[lang].notFound, `<h1 data-testid="error">${TEXT[lang].notFound}</h1>`))
      return
    }
    res.send(renderPayment(payment, lang, ctx.identity.usdcIssuer))
  })
}
