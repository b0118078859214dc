// HTTP face of cross-chain payments: POST /payments/{id}/cross-chain/quote (spec 4.5: no
// authentication needed, but checked when sent), GET /cross-chain/chains, the bridge order's
// status GET /cross-chain/quotes/{quoteId} (merchant auth), and the sandbox's simulated deposit
// POST /sandbox/cross-chain/quotes/{quoteId}/deposit (merchant auth).
import type { SandboxContext } from '../context.js'
import { currentMerchant } from '../http/auth.js'
import { notFound } from '../errors.js'
import { answerIdempotently } from '../http/idempotent-answer.js'
import { findPaymentForChange } from '../payments/payment-repository.js'
import { toPaymentResource } from '../payments/payment-resource.js'
import { BRIDGE_FEE_BPS, ORIGIN_CHAINS } from './chains.js'
import { depositBody, quoteBody } from '../../src/api/contract/cross-chain.js'
import { createQuote, getQuote, simulateDeposit, toQuoteResource } from './quote-service.js'
import { runTransaction } from '../db/database.js'
import type { Handlers } from '../openapi/handlers.js'
import { merchantNow } from '../merchants/merchant-time.js'
import { merchantNowOf } from '../clock.js'

export function quoteHandlers(ctx: SandboxContext) {
  return {
    listOriginChains: (req, res) => {
      res.json({
        bridgeFeeBps: BRIDGE_FEE_BPS,
        items: ORIGIN_CHAINS.map((chain) => ({ id: chain.id, name: chain.name, addressFormat: chain.addressFormat, tokens: chain.tokens })),
      })
    },
    createCrossChainQuote: async (req, res) => {
      const body = quoteBody.parse(req.body)
      const quote = await runTransaction(ctx.db, async (trx) => {
        // Locked: a payment's quotes change one at a time, under its row (quote-service.ts).
        const payment = req.params.id.length <= 64 ? await findPaymentForChange(trx, { id: req.params.id }) : undefined
        // Signed requests see only their own merchant's payments, like everywhere else.
        if (!payment || (req.merchant && payment.merchant_id !== req.merchant.id))
          throw notFound(`No payment ${req.params.id.slice(0, 64)}`)
        return createQuote(ctx, trx, payment, body)
      })
      res.json(toQuoteResource(quote, await merchantNow(ctx, ctx.db, quote.merchant_id)))
    },
    // The bridge order's status, for the merchant whose payment it pays.
    getCrossChainQuote: async (req, res) => {
      const merchant = currentMerchant(req)
      res.json(toQuoteResource(await getQuote(ctx.db, merchant.id, req.params.quoteId), merchantNowOf(ctx, merchant)))
    },
    simulateDeposit: async (req, res) => {
      const merchant = currentMerchant(req)
      const body = depositBody.parse(req.body)
      await answerIdempotently(ctx, req, res, async (trx) => {
        const { quote, payment } = await simulateDeposit(ctx, trx, merchant.id, req.params.quoteId, body)
        return { quote: toQuoteResource(quote, merchantNowOf(ctx, merchant)), payment: toPaymentResource(payment, ctx) }
      })
    },
  } satisfies Partial<Handlers>
}
