// Answers a money-moving POST through the idempotency gate: once per Idempotency-Key, the
// stored answer byte for byte after that (sandbox/idempotency/idempotency-service.ts).
import type { Request, Response } from 'express'
import type { Kysely } from 'kysely'
import type { SandboxContext } from '../context.js'
import type { Database } from '../db/schema.js'
import { answerOnce } from '../idempotency/idempotency-service.js'
import { recordingFailures } from '../ledger/failed-transactions.js'
import { currentMerchant } from './auth.js'
import { sendJson } from './json-response.js'
import { merchantNowOf } from '../merchants/merchant-time.js'

/**
 * Runs `work` in a transaction (through the gate when a key is sent) and sends its result as
 * JSON. A ledger transaction the work failed as included is recorded after the rollback.
 */
export async function answerIdempotently(
  ctx: Pick<SandboxContext, 'db' | 'clock' | 'wallClock' | 'ledger'>,
  req: Request,
  res: Response,
  work: (trx: Kysely<Database>) => Promise<unknown>,
): Promise<void> {
  const merchant = currentMerchant(req)
  const request = {
    merchantId: merchant.id,
    headers: req.headers,
    path: req.originalUrl.split('?')[0]!,
    body: req.body as unknown,
  }
  const answer = await recordingFailures(ctx, () => answerOnce(ctx.db, request, merchantNowOf(ctx, merchant), work))
  sendJson(res, answer.status, answer.body)
}
