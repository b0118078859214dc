// What a merchant may do to its webhook deliveries, for the API routes and the dashboard alike:
// resend one (at most RESENDS_PER_MINUTE a minute, counted in the database), pause and resume.
import type { SandboxContext } from '../context.js'
import type { WebhookDeliveryRow } from '../db/schema.js'
import { ApiError, notFound } from '../errors.js'
import { updateMerchant } from '../merchants/merchant-repository.js'
import { RESENDS_PER_MINUTE, ResendLimiter } from './resend-limiter.js'
import { findDeliveryForMerchant } from './webhook-repository.js'
import { merchantTimeOr } from '../merchants/merchant-time.js'

/** The merchant's delivery `id`; another merchant's is as unknown as a made-up id (404). */
export async function getDelivery(ctx: Pick<SandboxContext, 'db'>, merchantId: string, id: string): Promise<WebhookDeliveryRow> {
  const delivery = await findDeliveryForMerchant(ctx.db, merchantId, id)
  if (!delivery) throw notFound(`No webhook delivery ${id.slice(0, 64)}`)
  return delivery
}

/** Resends the merchant's delivery `id` as a new delivery; 429 with Retry-After past the limit. */
export async function resendDelivery(ctx: SandboxContext, merchantId: string, id: string): Promise<WebhookDeliveryRow> {
  const original = await getDelivery(ctx, merchantId, id)
  // Real time, but a merchant with a clock of its own counts resends on it (docs/clocks.md).
  const now = await merchantTimeOr(ctx, ctx.db, merchantId, ctx.wallClock.now())
  const taken = await new ResendLimiter(ctx.db, { now: () => now }).take(merchantId)
  if (!taken.allowed) {
    throw new ApiError(
      429,
      'Too Many Requests',
      `At most ${RESENDS_PER_MINUTE} resends per minute; retry in ${taken.retryAfterSeconds} s`,
      {
        'Retry-After': String(taken.retryAfterSeconds),
      },
    )
  }
  return ctx.webhooks.resend(original)
}

/** Paused webhooks are logged `skipped` instead of sent, until resumed. */
export async function setWebhooksPaused(ctx: Pick<SandboxContext, 'db'>, merchantId: string, paused: boolean): Promise<void> {
  await updateMerchant(ctx.db, merchantId, { webhooks_paused: paused ? 1 : 0 })
}
