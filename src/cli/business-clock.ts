// Whose business time a clock command or a scenario step moves: the sandbox's, or one merchant's
// own (a tenant's, issue 30), through the same four calls either way.
import { Flags } from '@oclif/core'
import type { PayboxClient } from '../client/paybox-client.js'
import type { AdvancedClock, SandboxClock } from '../client/types.js'
import { UserError } from '../user-error.js'

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
      advance: (seconds) => sandbox.advanceClock(seconds),
      freeze: (at) => sandbox.freezeClock(at),
      unfreeze: () => sandbox.unfreezeClock(),
    }
  }
  return {
    get: () => sandbox.getMerchantClock(merchantId),
    advance: (seconds) => sandbox.advanceMerchantClock(merchantId, seconds),
    freeze: (at) => sandbox.freezeMerchantClock(merchantId, at),
    unfreeze: () => sandbox.unfreezeMerchantClock(merchantId),
  }
}

/** `--merchant` of the clock commands. */
export const clockMerchantFlag = Flags.string({
  description: `Move this merchant's own clock (a tenant's) instead of the whole sandbox's [env: ${TENANT_ENV_VAR}]`,
  env: TENANT_ENV_VAR,
})

/** The flag's value, refusing an empty one (an unset variable in a CI script) rather than moving every merchant's time. */
export function clockMerchantOf(merchant: string | undefined): string | undefined {
  if (merchant !== undefined && merchant.trim() === '') {
    throw new UserError('--merchant must not be empty', `pass a merchant id, or leave --merchant and ${TENANT_ENV_VAR} out`)
  }
  return merchant
}
