// Whose business time a clock command or a scenario step moves: the sandbox's, or one merchant's
// own (a tenant's, issue 30), through the same four calls either way.
import type { PayboxClient } from '../client/paybox-client.js'
import type { AdvancedClock, SandboxClock } from '../client/types.js'

/** Set by `paybox sandbox tenant create --env`: a shell that sourced it moves its tenant's clock, not everyone's. */
export const TENANT_ENV_VAR = 'PAYBOX_TENANT_ID'

export interface BusinessClock {
  get(): Promise<SandboxClock>
  advance(seconds: number): Promise<AdvancedClock>
  freeze(at?: string): Promise<SandboxClock>
  unfreeze(): Promise<SandboxClock>
}

/** The sandbox-wide clock, or with `merchantId` that merchant's own; `client` carries the admin token. */
export function businessClock(client: PayboxClient, merchantId?: string): BusinessClock {
  const { sandbox } = client
  if (merchantId === undefined) {
    return {
      get: () => sandbox.clock(),
      advance: (seconds) => sandbox.advanceClock({ seconds }),
      freeze: (at) => sandbox.freezeClock({ at }),
      unfreeze: () => sandbox.unfreezeClock(),
    }
  }
  return {
    get: () => sandbox.getMerchantClock(merchantId),
    advance: (seconds) => sandbox.advanceMerchantClock(merchantId, { seconds }),
    freeze: (at) => sandbox.freezeMerchantClock(merchantId, { at }),
    unfreeze: () => sandbox.unfreezeMerchantClock(merchantId),
  }
}
