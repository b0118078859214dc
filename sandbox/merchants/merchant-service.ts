// Merchants of the sandbox: creation with fresh API keys and a ledger settlement account, and
// the public shape shown in the banner and to the admin API.
import type { Kysely } from 'kysely'
import type { SettlementMode } from '../../src/api/enumerations.js'
import type { Database, MerchantRow } from '../db/schema.js'
import { createLedgerAccount } from '../ledger/ledger-accounts.js'
import { hex, type RandomSource } from '../random.js'
import { badRequest } from '../errors.js'
import { insertMerchant, updateMerchant } from './merchant-repository.js'

export interface NewMerchantInput {
  name: string
  settlementMode: SettlementMode
  escrowFeeBps?: number
  /** Fixed credentials (for CI, or kept by a reset); generated when absent. */
  apiKey?: string
  apiSecret?: string
  /** Kept by a reset; generated when absent. */
  id?: string
  /** A tenant: a merchant for one job, with its own clock (running at an offset from the wall clock, or frozen). */
  tenant?: { clockOffsetMs: number; clockFrozenAt: number | null }
}

export interface MerchantCredentials {
  id: string
  name: string
  apiKey: string
  apiSecret: string
  settlement_mode: SettlementMode
}

export const newApiKey = (random: RandomSource): string => `pk_test_${hex(random, 16)}`
export const newApiSecret = (random: RandomSource): string => `sk_test_${hex(random, 24)}`

export async function createMerchant(
  db: Kysely<Database>,
  random: RandomSource,
  input: NewMerchantInput,
  now: number,
): Promise<MerchantRow> {
  // A direct merchant has no escrow orders to take a fee from (the admin API and the dashboard alike).
  if (input.settlementMode === 'direct' && input.escrowFeeBps !== undefined) {
    throw badRequest('escrow_fee_bps: only for merchants with settlement_mode escrow')
  }
  const account = await createLedgerAccount(db, random, 'merchant', `${input.name} settlement`, now)
  // Drawn even when given, so that what a seeded sandbox draws next is the same either way.
  const drawn = { id: random.uuidV4(), apiKey: newApiKey(random), apiSecret: newApiSecret(random) }
  const merchant: MerchantRow = {
    id: input.id ?? drawn.id,
    name: input.name,
    api_key: input.apiKey ?? drawn.apiKey,
    api_secret: input.apiSecret ?? drawn.apiSecret,
    settlement_mode: input.settlementMode,
    escrow_fee_bps: input.escrowFeeBps ?? 0,
    account_id: account.public_key,
    created_at: now,
    webhooks_paused: 0,
    tenant: input.tenant === undefined ? 0 : 1,
    archived_at: null,
    clock_offset_ms: input.tenant?.clockOffsetMs ?? null,
    clock_frozen_at: input.tenant?.clockFrozenAt ?? null,
    clock_advanced_ms: 0,
  }
  await insertMerchant(db, merchant)
  return merchant
}

export function toMerchantCredentials(merchant: MerchantRow): MerchantCredentials {
  return {
    id: merchant.id,
    name: merchant.name,
    apiKey: merchant.api_key,
    apiSecret: merchant.api_secret,
    settlement_mode: merchant.settlement_mode,
  }
}

/** A new API secret for the merchant; the old one stops working at once. */
export async function rotateSecret(db: Kysely<Database>, random: RandomSource, merchant: MerchantRow): Promise<MerchantRow> {
  const api_secret = newApiSecret(random)
  await updateMerchant(db, merchant.id, { api_secret })
  return { ...merchant, api_secret }
}
