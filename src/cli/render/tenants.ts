// A tenant (issue 30): a merchant made for one CI job or test worker, with its own business clock.
import type { CreatedTenant, SandboxMerchant } from '../../client/types.js'
import { TENANT_ENV_VAR } from '../business-clock.js'
import { ENV_VARS } from '../../config/connection.js'
import { chalk, details } from '../output.js'

export function renderCreatedTenant(tenant: CreatedTenant): string {
  const { merchant, clock } = tenant
  return [
    details([
      ['Tenant', merchant.name],
      ['Id', merchant.id],
      ['Mode', merchant.settlement_mode],
      ['API key', merchant.apiKey],
      ['API secret', merchant.apiSecret],
      ['Account', merchant.account],
      ['Business time', clock.frozenAt === undefined ? clock.now : `${clock.now} (frozen)`],
    ]),
    `${chalk.bold('Act as it')} in a shell or CI step: eval "$(paybox sandbox tenant create --env)"`,
    `Its clock: paybox sandbox clock advance 31m --merchant ${merchant.id}`,
    `When done: paybox sandbox tenant delete ${merchant.id}`,
  ].join('\n')
}

/**
 * `export NAME='value'` lines a shell can `source` or `eval`: what a later paybox call needs to act
 * as the tenant (base URL and keys) and to move its clock only.
 */
export function renderTenantEnv(baseUrl: string, merchant: Pick<SandboxMerchant, 'id' | 'apiKey' | 'apiSecret'>): string {
  const quote = (value: string) => `'${value.replaceAll("'", "'\\''")}'`
  return [
    [ENV_VARS.baseUrl, baseUrl],
    [ENV_VARS.apiKey, merchant.apiKey],
    [ENV_VARS.apiSecret, merchant.apiSecret],
    [TENANT_ENV_VAR, merchant.id],
  ]
    .map(([name, value]) => `export ${name}=${quote(value!)}`)
    .join('\n')
}
