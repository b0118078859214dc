// A merchant just created in the sandbox: its credentials, and how to use them from the CLI.
import type { SandboxMerchant } from '../../client/types.js'
import { chalk, details } from '../output.js'

/** A profile name from a merchant name: "Corner Shop" → "corner-shop". */
export const profileNameFor = (merchantName: string): string =>
  merchantName
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '') || 'merchant'

export function renderCreatedMerchant(merchant: SandboxMerchant, baseUrl: string): string {
  const credentials = details([
    ['Merchant', merchant.name],
    ['Id', merchant.id],
    ['Mode', merchant.settlement_mode],
    ['Escrow fee', merchant.settlement_mode === 'escrow' ? `${merchant.escrow_fee_bps} bps` : undefined],
    ['API key', merchant.apiKey],
    ['API secret', merchant.apiSecret],
    ['Account', merchant.account],
  ])
  const keys = `--api-key ${merchant.apiKey} --api-secret ${merchant.apiSecret}`
  return [
    credentials,
    `${chalk.bold('Use it')} with ${chalk.bold('--api-key')} and ${chalk.bold('--api-secret')} on any command:`,
    `  paybox payments create --amount 10.00 --description "First order" ${keys}`,
    'or save it as a profile (then pass --profile, or set PAYBOX_PROFILE):',
    `  paybox login --base-url ${baseUrl} ${keys} --profile ${profileNameFor(merchant.name)}`,
  ].join('\n')
}
