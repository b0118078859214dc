// The banner `paybox sandbox start` prints, the status view, keys, snapshots and the clock.
import type { SandboxClock, SandboxMerchant, SandboxSnapshot, SandboxStateSwap } from '../../client/types.js'
import { chalk, details, table } from '../output.js'

export interface SandboxBanner {
  baseUrl: string
  /** The sandbox's Horizon-compatible API (`${baseUrl}/horizon`), for Stellar SDKs and tools. */
  horizonUrl: string
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

export function renderBanner(banner: SandboxBanner, options: { detachedPid?: number } = {}): string {
  const merchants = table(
    ['Merchant', 'Mode', 'Id', 'API key', 'API secret'],
    banner.merchants.map((m) => [m.name, m.settlement_mode, m.id, m.apiKey, m.apiSecret]),
  )
  const first = banner.merchants[0]
  return [
    chalk.green.bold('paybox sandbox is running'),
    details([
      ['Base URL', banner.baseUrl],
      ['Horizon URL', banner.horizonUrl],
      ['Dashboard', `${banner.baseUrl}/dashboard (sign in with: paybox dashboard)`],
      ['Admin token', banner.adminToken],
      ['Network passphrase', banner.networkPassphrase],
      ['Database', banner.database],
    ]),
    merchants,
    first
      ? `${chalk.bold('Try it')} (a signed request; paste into a shell):\n${signedCurlExample(banner.baseUrl, first.apiKey, first.apiSecret)}`
      : '',
    chalk.gray(
      options.detachedPid === undefined
        ? 'Press Ctrl+C to stop.'
        : `Running in the background (pid ${options.detachedPid}). Stop it with: paybox sandbox stop; its log: paybox sandbox logs`,
    ),
  ].join('\n\n')
}

export function renderStatus(baseUrl: string, health: string, merchants: SandboxMerchant[] | undefined): string {
  const lines = [
    details([
      ['Base URL', baseUrl],
      ['Health', health],
    ]),
  ]
  if (merchants) {
    lines.push(
      table(
        ['Merchant', 'Mode', 'Id', 'API key', 'Account'],
        merchants.map((m) => [m.name, m.settlement_mode, m.id, m.apiKey, m.account]),
      ),
    )
  }
  return lines.join('\n')
}

/** `paybox sandbox keys`: what a script needs to call the sandbox. */
export function renderKeys(baseUrl: string, adminToken: string, merchants: SandboxMerchant[]): string {
  return [
    details([
      ['Base URL', baseUrl],
      ['Admin token', adminToken],
    ]),
    table(
      ['Merchant', 'Mode', 'Id', 'API key', 'API secret'],
      merchants.map((m) => [m.name, m.settlement_mode, m.id, m.apiKey, m.apiSecret]),
    ),
  ].join('\n\n')
}

/** Shell exports of one merchant's connection, for `eval "$(paybox sandbox keys --env)"`. */
export function renderKeysAsEnv(baseUrl: string, adminToken: string, merchant: Pick<SandboxMerchant, 'apiKey' | 'apiSecret'>): string {
  const quote = (value: string) => `'${value.replaceAll("'", "'\\''")}'`
  return [
    `export PAYBOX_BASE_URL=${quote(baseUrl)}`,
    `export PAYBOX_ADMIN_TOKEN=${quote(adminToken)}`,
    `export PAYBOX_API_KEY=${quote(merchant.apiKey)}`,
    `export PAYBOX_API_SECRET=${quote(merchant.apiSecret)}`,
  ].join('\n')
}

export function renderSnapshots(snapshots: SandboxSnapshot[]): string {
  return table(
    ['Snapshot', 'Size', 'Saved'],
    snapshots.map((s) => [s.name, `${Math.ceil(s.size / 1024)} KiB`, s.createdAt]),
  )
}

/** After a restore or reset: what changed, and the keys to use from now on. */
export function renderStateSwap(headline: string, swap: SandboxStateSwap): string {
  return [
    chalk.green(headline),
    details([
      ['Business time', swap.clock.now],
      ['Frozen', swap.clock.frozenAt === undefined ? 'no' : 'yes'],
    ]),
    table(
      ['Merchant', 'Mode', 'Id', 'API key', 'API secret'],
      swap.merchants.map((m) => [m.name, m.settlement_mode, m.id, m.apiKey, m.apiSecret]),
    ),
  ].join('\n\n')
}

export function renderClock(clock: SandboxClock): string {
  return details([
    ['Business time', clock.now],
    ['Frozen', clock.frozenAt === undefined ? 'no (running)' : `yes, at ${clock.frozenAt}`],
    ['Advanced by', `${clock.advancedSeconds} s`],
  ])
}

/** What advancing the clock processed, as the API names it, in words. */
const PROCESSED_LABELS: Record<string, string> = {
  expiredPayments: 'Payments expired',
  overdueInvoices: 'Invoices now overdue',
  failedEscrows: 'Escrow orders failed',
}

export function renderClockAdvance(result: SandboxClock & { processed: Record<string, number> }): string {
  return details([
    ['Business time', result.now],
    ['Advanced by (total)', `${result.advancedSeconds} s`],
    ...Object.entries(result.processed).map(([what, count]): [string, string] => [PROCESSED_LABELS[what] ?? what, String(count)]),
  ])
}
