// Reading flag values that oclif cannot check by itself: amounts in major units, metadata
// entries, Stellar addresses and transaction hashes. Each failure names its flag in one line.
import { Flags } from '@oclif/core'
import { readAmount } from './amount-input.js'
import { UserError } from '../user-error.js'
import type { Precisions } from './render/payments.js'

export function minorUnitsFlag(text: string, currency: string, precisions: Precisions, flag = 'amount'): number {
  const precision = precisions.get(currency)
  if (precision === undefined) throw new UserError(`Unsupported currency ${currency}`, `one of ${[...precisions.keys()].join(', ')}`)
  const reading = readAmount(text, currency, precision)
  if ('expected' in reading) throw new UserError(`--${flag} must be ${reading.expected}, got "${text}"`)
  return reading.value
}

// One line: oclif's own `exclusive` reports each pair twice.
export function oneOfFlags(flags: Record<string, unknown>, names: string[]): void {
  const dashed = (list: string[]): string[] => list.map((name) => `--${name}`)
  const given = names.filter((name) => flags[name] !== undefined && flags[name] !== false)
  if (given.length > 1)
    throw new UserError(`${dashed(given).join(' and ')} cannot be used together`, `pass one of ${dashed(names).join(', ')}`)
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
export const httpUrlFlag = (text: string, flag: string): string => httpUrlOf(text, `--${flag}`)

/** The same for a positional argument, named as --help shows it: <url>. */
export const httpUrlArg = (text: string, arg: string): string => httpUrlOf(text, `<${arg}>`)

function httpUrlOf(text: string, named: string): string {
  const protocol = URL.canParse(text) ? new URL(text).protocol : undefined
  if (protocol !== 'http:' && protocol !== 'https:') throw new UserError(`${named} must be an absolute http(s) URL, got "${text}"`)
  return text
}

/** --idempotency-key of the commands that move money: sent as the Idempotency-Key header. */
export const idempotencyKeyFlag = (effect: string) =>
  Flags.string({ description: `Idempotency-Key header: retrying with the same key never ${effect} twice` })
