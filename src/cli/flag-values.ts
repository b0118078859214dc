// Reading flag values that oclif cannot check by itself: amounts in major units, metadata
// entries, Stellar addresses and transaction hashes. Each failure names its flag in one line.
import { majorToMinorUnits } from '../money.js'
import { UserError } from './errors.js'
import type { Precisions } from './render/payments.js'

/**
 * Reads a major-unit amount ("12.50", "1500") as a positive count of the smallest unit of
 * `currency`, whose precision comes from /currencies.
 */
export function minorUnitsFlag(text: string, currency: string, precisions: Precisions, flag = 'amount'): number {
  const precision = precisions.get(currency)
  if (precision === undefined) throw new UserError(`Unsupported currency ${currency}`, `one of ${[...precisions.keys()].join(', ')}`)
  const value = majorToMinorUnits(text, precision)
  if (value === undefined || value <= 0) {
    throw new UserError(`--${flag} must be a positive amount with at most ${precision} decimal places for ${currency}, got "${text}"`)
  }
  return value
}

/**
 * Fails when more than one of `names` is given. oclif's own `exclusive` reports each pair twice
 * and exits as a usage error (2); a choice between alternatives is a plain user error (1).
 */
export function oneOfFlags(flags: Record<string, unknown>, names: string[]): void {
  const dashed = (list: string[]): string[] => list.map((name) => `--${name}`)
  const given = names.filter((name) => flags[name] !== undefined && flags[name] !== false)
  if (given.length > 1) throw new UserError(`${dashed(given).join(' and ')} cannot be used together`, `pass one of ${dashed(names).join(', ')}`)
}

/** Repeated key=value entries as one metadata object. */
export function metadataFlag(entries: string[], flag = 'metadata'): Record<string, string> {
  const metadata: Record<string, string> = {}
  for (const entry of entries) {
    const at = entry.indexOf('=')
    if (at <= 0) throw new UserError(`--${flag} must be key=value, got "${entry}"`)
    metadata[entry.slice(0, at)] = entry.slice(at + 1)
  }
  return metadata
}

/** A Stellar account address (G…), checksum included. */
export async function accountAddressFlag(text: string, flag: string): Promise<string> {
  // The SDK takes a third of a second to load: only commands given an address pay for it.
  const { StrKey } = await import('@stellar/stellar-base')
  if (!StrKey.isValidEd25519PublicKey(text)) throw new UserError(`--${flag} must be a Stellar account address (G…), got "${text}"`)
  return text
}

const TRANSACTION_HASH = /^[0-9a-f]{64}$/i

/** A ledger transaction hash: 64 hex digits, returned in lower case as the ledger writes it. */
export function transactionHashArg(text: string): string {
  if (!TRANSACTION_HASH.test(text)) throw new UserError(`Invalid transaction hash "${text}"`, 'a transaction hash is 64 hex digits')
  return text.toLowerCase()
}

/** An absolute http(s) URL, such as a webhook receiver's; other schemes are refused. */
export function httpUrlFlag(text: string, flag: string): string {
  const protocol = URL.canParse(text) ? new URL(text).protocol : undefined
  if (protocol !== 'http:' && protocol !== 'https:') throw new UserError(`--${flag} must be an absolute http(s) URL, got "${text}"`)
  return text
}
