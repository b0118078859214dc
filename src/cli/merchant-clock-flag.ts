// `--merchant` of the clock commands: one merchant's own clock (a tenant's) instead of the sandbox's,
// defaulting to the tenant a shell sourced.
import { Flags } from '@oclif/core'
import { UserError } from '../user-error.js'
import { TENANT_ENV_VAR } from './business-clock.js'

/** `--merchant` of the clock commands. */
export const clockMerchantFlag = Flags.string({
  description: `This merchant's own clock (a tenant's) instead of the whole sandbox's [env: ${TENANT_ENV_VAR}]`,
  env: TENANT_ENV_VAR,
})

/** The flag's value, refusing an empty one (an unset variable in a CI script) rather than moving every merchant's time. */
export function clockMerchantOf(merchant: string | undefined): string | undefined {
  if (merchant !== undefined && merchant.trim() === '') {
    throw new UserError('--merchant must not be empty', `pass a merchant id, or leave --merchant and ${TENANT_ENV_VAR} out`)
  }
  return merchant
}
