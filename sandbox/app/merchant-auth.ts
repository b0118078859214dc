// How a running sandbox authenticates merchants (http/auth.ts's DigestAuthDeps): each key's merchant
// from the merchants table (through a cache on PostgreSQL, merchants/merchant-cache.ts), the real
// time, and under --shared the per-key limit and the replay guard.
import type { SandboxContext } from '../context.js'
import type { DigestAuthDeps } from '../http/auth.js'
import { MerchantCache } from '../merchants/merchant-cache.js'
import { findMerchantByApiKey } from '../merchants/merchant-repository.js'

type AuthContext = Pick<SandboxContext, 'db' | 'wallClock' | 'rateLimits' | 'replayGuard'>

/** One cache per state (a restore builds a new context), shared by the app and the fast routes. */
const caches = new WeakMap<AuthContext, MerchantCache>()

export function merchantAuthDeps(ctx: AuthContext): DigestAuthDeps {
  let cache = caches.get(ctx)
  if (cache === undefined) caches.set(ctx, (cache = new MerchantCache(ctx.db, (apiKey) => findMerchantByApiKey(ctx.db, apiKey))))
  const merchants = cache
  return {
    wallClock: ctx.wallClock,
    findMerchantByApiKey: (apiKey: string) => merchants.find(apiKey),
    apiKeyLimiter: ctx.rateLimits?.apiKey,
    replayGuard: ctx.replayGuard,
  }
}
