// The banner `paybox sandbox start` prints, and the status view.
import type { SandboxMerchant } from '../../client/types.js'
import { chalk, details, table } from '../output.js'

export interface SandboxBanner {
  baseUrl: string
  adminToken: string
  networkPassphrase: string
  database: string
  merchants: Array<Omit<SandboxMerchant, 'account' | 'escrow_fee_bps'>>
}

/** A curl command that signs itself when pasted (openssl computes the digest at run time). */
export function signedCurlExample(baseUrl: string, apiKey: string, apiSecret: string): string {
  return [
    `ts=$(date +%s); sig=$(printf '%s' "/payments\${ts}GET" | openssl dgst -sha256 -hmac '${apiSecret}' | sed 's/^.* //')`,
    `curl -s '${baseUrl}/payments' -H 'x-digest-key: ${apiKey}' -H "x-digest-timestamp: $ts" -H "x-digest-signature: $sig"`,
  ].join('\n')
}

export function renderBanner(banner: SandboxBanner): string {
  const merchants = table(
    ['Merchant', 'Mode', 'Id', 'API key', 'API secret'],
    banner.merchants.map((m) => [m.name, m.settlement_mode, m.id, m.apiKey, m.apiSecret]),
  )
  const first = banner.merchants[0]
  return [
    chalk.green.bold('paybox sandbox is running'),
    details([
      ['Base URL', banner.baseUrl],
      ['Admin token', banner.adminToken],
      ['Network passphrase', banner.networkPassphrase],
      ['Database', banner.database],
    ]),
    merchants,
    first ? `${chalk.bold('Try it')} (a signed request; paste into a shell):\n${signedCurlExample(banner.baseUrl, first.apiKey, first.apiSecret)}` : '',
    chalk.gray('Press Ctrl+C to stop.'),
  ].join('\n\n')
}

export function renderStatus(baseUrl: string, health: string, merchants: SandboxMerchant[] | undefined): string {
  const lines = [details([['Base URL', baseUrl], ['Health', health]])]
  if (merchants) {
    lines.push(table(['Merchant', 'Mode', 'Id', 'API key', 'Account'], merchants.map((m) => [m.name, m.settlement_mode, m.id, m.apiKey, m.account])))
  }
  return lines.join('\n')
}
