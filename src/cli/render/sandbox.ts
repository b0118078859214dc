// The banner `paybox sandbox start` prints, the status view, keys, snapshots and the clock.
import { stripVTControlCharacters } from 'node:util'
import type { AdvancedClock, SandboxClock, SandboxMerchant, SandboxSnapshot, SandboxStateSwap } from '../../client/types.js'
import { wire } from '../../api/wire.js'
import { DIGEST_HEADERS } from '../../api/headers.js'
import { DASHBOARD_PATH } from '../../api/paths.js'
import { chalk, details, table } from '../output.js'

export interface SandboxBanner {
  baseUrl: string
  /** The sandbox's Horizon-compatible API (`${baseUrl}${HORIZON_PATH}`), for Stellar SDKs and tools. */
  horizonUrl: string
  adminToken: string
  networkPassphrase: string
  database: string
  /** The database already held a sandbox (another replica's, or an earlier run's); false: this process made its genesis. */
  joined: boolean
  merchants: Array<Omit<SandboxMerchant, 'account' | 'escrow_fee_bps'>>
}

/** A curl command that signs itself when pasted (openssl computes the digest at run time), in lines of under 100 columns. */
export function signedCurlExample(baseUrl: string, apiKey: string, apiSecret: string): string {
  const { path } = wire.payments.list
  return [
    'ts=$(date +%s)',
    `sig=$(printf '%s' "${path}\${ts}GET" \\`,
    `  | openssl dgst -sha256 -hmac '${apiSecret}' \\`,
    "  | sed 's/^.* //')",
    `curl -s '${baseUrl}${path}' \\`,
    `  -H '${DIGEST_HEADERS.key}: ${apiKey}' \\`,
    `  -H "${DIGEST_HEADERS.timestamp}: $ts" -H "${DIGEST_HEADERS.signature}: $sig"`,
  ].join('\n')
}

const widthOf = (text: string): number =>
  Math.max(
    ...stripVTControlCharacters(text)
      .split('\n')
      .map((line) => line.length),
  )

/**
 * The merchants and their keys: one table, or, where that is wider than `width` (a terminal's), one
 * short table per merchant. Never cut: the banner is where the keys are copied from.
 */
function merchantKeys(merchants: SandboxBanner['merchants'], width: number | undefined): string {
  const whole = table(
    ['Merchant', 'Mode', 'Id', 'API key', 'API secret'],
    merchants.map((m) => [m.name, m.settlement_mode, m.id, m.apiKey, m.apiSecret]),
  )
  if (width === undefined || widthOf(whole) <= width) return whole
  return merchants
    .map((m) =>
      details([
        ['Merchant', m.name],
        ['Mode', m.settlement_mode],
        ['Id', m.id],
        ['API key', m.apiKey],
        ['API secret', m.apiSecret],
      ]),
    )
    .join('\n')
}

/** `width`: the terminal's columns; the banner then fits them (undefined: one wide table, for a file or pipe). */
export function renderBanner(banner: SandboxBanner, options: { detachedPid?: number; width?: number } = {}): string {
  const first = banner.merchants[0]
  return [
    chalk.green.bold('paybox sandbox is running'),
    details([
      ['Base URL', banner.baseUrl],
      ['Horizon URL', banner.horizonUrl],
      ['Dashboard', `${banner.baseUrl}${DASHBOARD_PATH} (sign in with: paybox dashboard)`],
      ['Admin token', banner.adminToken],
      ['Network passphrase', banner.networkPassphrase],
      ['Database', banner.database],
      [
        'State',
        banner.joined
          ? 'joined the sandbox already in this database (its merchants, keys and admin token)'
          : 'new: genesis made by this process',
      ],
    ]),
    merchantKeys(banner.merchants, options.width),
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

/** What `sandbox snapshot restore` and `sandbox reset` print: never the secrets, which CI logs would keep. */
export type PrintedStateSwap = Omit<SandboxStateSwap, 'merchants'> & {
  merchants: Array<Omit<SandboxStateSwap['merchants'][number], 'apiSecret'>>
}

export function withoutSecrets(swap: SandboxStateSwap): PrintedStateSwap {
  return { ...swap, merchants: swap.merchants.map(({ apiSecret: _secret, ...merchant }) => merchant) }
}

/** After a restore or reset: what changed, and the keys to use from now on (their secrets: `paybox sandbox keys`). */
export function renderStateSwap(headline: string, swap: PrintedStateSwap): string {
  return [
    chalk.green(headline),
    details([
      ['Business time', swap.clock.now],
      ['Frozen', swap.clock.frozenAt === undefined ? 'no' : 'yes'],
    ]),
    table(
      ['Merchant', 'Mode', 'Id', 'API key'],
      swap.merchants.map((m) => [m.name, m.settlement_mode, m.id, m.apiKey]),
    ),
    chalk.gray('The CLI uses their new keys from now on; their secrets: paybox sandbox keys'),
  ].join('\n\n')
}

export function renderClock(clock: SandboxClock): string {
  return details([
    ['Business time', clock.now],
    ['Frozen', clock.frozenAt === undefined ? 'no (running)' : `yes, at ${clock.frozenAt}`],
    ['Advanced by', `${clock.advancedSeconds} s`],
  ])
}

/** What advancing the clock processed, as the API names it, in words: a new count is a type error until it has its label. */
const PROCESSED_LABELS: Record<keyof AdvancedClock['processed'], string> = {
  expiredPayments: 'Payments expired',
  overdueInvoices: 'Invoices now overdue',
  failedEscrows: 'Escrow orders failed',
  closedQuotes: 'Cross-chain orders closed',
}

export function renderClockAdvance(result: AdvancedClock): string {
  const labelled = Object.keys(PROCESSED_LABELS) as Array<keyof AdvancedClock['processed']>
  return details([
    ['Business time', result.now],
    ['Advanced by (total)', `${result.advancedSeconds} s`],
    ...labelled.map((what): [string, string] => [PROCESSED_LABELS[what], String(result.processed[what])]),
  ])
}
