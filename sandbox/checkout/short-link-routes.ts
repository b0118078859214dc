// Short shareable links: GET /s/{code} answers 302 to the payment's hostedUrl.
import type { SandboxContext } from '../context.js'
import { notFound } from '../errors.js'
import { findPaymentByShortCode } from '../payments/payment-repository.js'
import { hostedUrl } from '../payments/payment-resource.js'
import type { PublicHandlers } from '../openapi/handlers.js'

export function shortLinkHandlers(ctx: SandboxContext) {
  return {
    followShortLink: async (req, res) => {
      const code = req.params.code
      const payment = code.length <= 32 ? await findPaymentByShortCode(ctx.db, code) : undefined
      if (!payment) throw notFound(`No payment link ${code}`)
      res.redirect(302, hostedUrl(payment, ctx.publicUrl))
    },
  } satisfies Partial<PublicHandlers>
}
