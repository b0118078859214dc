// The two busiest requests, POST /payments and GET /payments/{id}, answered straight from
// node:http in front of Express. Express's routing, middleware chain and response helpers cost
// more than everything else a payment read does (docs/performance.md). The answers are Express's
// to the byte: the same body reading and decoding (body.ts), digest authentication (auth.ts),
// route code (paymentAnswers) and error mapping (errors.ts). Only the plainest form of each
// request is taken; anything else (a query string, a trailing slash, other letter case, an
// encoded id, a compressed body, HEAD) goes to Express, which also serves every other route.
import type http from 'node:http'
import type { SandboxContext } from '../context.js'
import type { MerchantRow } from '../db/schema.js'
import type { PaymentAnswers } from '../payments/payment-routes.js'
import type { EntryWire } from '../../src/api/contract/entry.js'
import { wire } from '../../src/api/wire.js'
import { authenticateMerchant } from '../http/auth.js'
import { decodeJsonBody, readRawBody } from '../http/body.js'
import { sendError } from '../http/errors.js'
import { sendJson } from '../http/json-response.js'
import { attributeRequest, noteRequestBody } from '../http/request-notes.js'
import { merchantAuthDeps } from './merchant-auth.js'

const { create: createPayment, get: getPayment } = wire.payments as { create: EntryWire; get: EntryWire }
const CREATE_METHOD = createPayment.method.toUpperCase()
const READ_METHOD = getPayment.method.toUpperCase()
/** getPayment's path with a plain id captured; any other spelling of the id goes to Express. */
const PAYMENT_PATH = new RegExp(`^${getPayment.path.replace(':id', '([A-Za-z0-9_-]{1,64})')}$`)

type FastRoute = (merchant: MerchantRow, body: unknown, req: http.IncomingMessage) => Promise<{ status: number; body: string }>

/** The 401 reason the entries of POST /payments and GET /payments/{id} declare; both need digest auth. */
function declaredReason(): string {
  if (
    createPayment.security !== 'digest' ||
    getPayment.security !== 'digest' ||
    createPayment.authReason !== getPayment.authReason ||
    !createPayment.authReason
  )
    throw new Error('The fast routes answer only what digest auth with one reason guards')
  return createPayment.authReason
}

export function withFastRoutes(ctx: SandboxContext, payments: PaymentAnswers, express: http.RequestListener): http.RequestListener {
  const auth = merchantAuthDeps(ctx)
  const reason = declaredReason()
  const create: FastRoute = (merchant, body, req) => payments.create({ merchant, headers: req.headers, body })

  async function answer(req: http.IncomingMessage, res: http.ServerResponse, route: FastRoute): Promise<void> {
    try {
      const { rawBody, body } = decodeJsonBody(await readRawBody(req, res), req.headers['content-type'])
      noteRequestBody(req, rawBody)
      const signed = { method: req.method!, originalUrl: req.url!, headers: req.headers, rawBody, body, incoming: req }
      const merchant = (await authenticateMerchant(auth, reason, signed))!
      attributeRequest(req, merchant.id)
      const response = await route(merchant, body, req)
      sendJson(res, response.status, response.body)
    } catch (error) {
      sendError(res, error, ctx.log)
    }
  }

  return (req, res) => {
    const { method, url = '' } = req
    if (req.headers['content-encoding'] === undefined) {
      if (method === CREATE_METHOD && url === createPayment.path) return void answer(req, res, create)
      const read = method === READ_METHOD ? PAYMENT_PATH.exec(url) : null
      if (read) {
        const id = read[1]!
        return void answer(req, res, async (merchant) => ({ status: 200, body: await payments.get(merchant, id) }))
      }
    }
    return express(req, res)
  }
}
