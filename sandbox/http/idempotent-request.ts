// What the idempotency gate needs to know of an Express request to a money-moving POST.
import type { Request } from 'express'
import type { IdempotentRequest } from '../idempotency/idempotency-service.js'
import { currentMerchant } from './auth.js'

export function idempotentRequest(req: Request): IdempotentRequest {
  return { merchantId: currentMerchant(req).id, headers: req.headers, path: req.originalUrl.split('?')[0]!, body: req.body }
}
