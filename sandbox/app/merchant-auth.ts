// How a running sandbox authenticates merchants (http/auth.ts's DigestAuthDeps): each key's merchant
// from the merchants table, the real time, and under --shared the per-key limit and the replay guard.
import type { SandboxContext } from '../context.js'
import type { DigestAuthDeps } from '../http/auth.js'
import { findMerchantByApiKey } from '../merchants/merchant-repository.js'

export function merchantAuthDeps(ctx: Pick<SandboxContext, 'db' | 'wallClock' | 'rateLimits' | 'replayGuard'>): DigestAuthDeps {
  return {
    wallClock: ctx.wallClock,
    findMerchantByApiKey: (apiKey: string) => findMerchantByApiKey(ctx.db, apiKey),
    apiKeyLimiter: ctx.rateLimits?.apiKey,
    replayGuard: ctx.replayGuard,
  }
}
