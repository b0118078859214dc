import { Account, Asset, Keypair, Operation, TransactionBuilder, type Transaction } from '@stellar/stellar-base'
import { describe, expect, it } from 'vitest'
import type { LedgerAccountRow } from '../../sandbox/db/schema.js'
import { BASE_FEE, checkAndApply, toWorkingAccount, transactionHash, type WorkingAccount } from '../../sandbox/ledger/envelope-rules.js'
import { SANDBOX_NETWORK_PASSPHRASE, STROOPS_PER_UNIT, USDC_ASSET_CODE } from '../../sandbox/ledger/ledger-accounts.js'
import { LedgerError } from '../../sandbox/ledger/ledger-errors.js'

// The rules alone: real keys and envelopes, working accounts in memory, no database.
const NOW = Date.UTC(2026, 10, 21, 12)
const issuer = Keypair.fromRawEd25519Seed(Buffer.alloc(32, 1))
const alice = Keypair.fromRawEd25519Seed(Buffer.alloc(32, 2))
const bob = Keypair.fromRawEd25519Seed(Buffer.alloc(32, 3))
const carol = Keypair.fromRawEd25519Seed(Buffer.alloc(32, 4))
const USDC = new Asset(USDC_ASSET_CODE, issuer.publicKey())

function row(key: Keypair, usdc: bigint, options: { trustline?: boolean; limit?: bigint } = {}): LedgerAccountRow {
  return {
    public_key: key.publicKey(),
    secret: null,
    role: 'customer',
    label: key.publicKey().slice(0, 6),
    sequence: '100',
    xlm_balance: (100n * STROOPS_PER_UNIT).toString(),
    usdc_balance: usdc.toString(),
    usdc_trustline: options.trustline === false ? 0 : 1,
    usdc_limit: (options.limit ?? 2n ** 62n).toString(),
    created_at: NOW,
  } as LedgerAccountRow
}

function accounts(...rows: LedgerAccountRow[]): Map<string, WorkingAccount> {
  return new Map(rows.map((r) => [r.public_key, toWorkingAccount(r)]))
}

function envelope(
  payments: Array<{ to: Keypair; amount: string; from?: Keypair }>,
  options: { sequence?: string; fee?: string; signers?: Keypair[]; timebounds?: { minTime: number; maxTime: number } } = {},
): Transaction {
  const builder = new TransactionBuilder(new Account(alice.publicKey(), options.sequence ?? '100'), {
    fee: options.fee ?? BASE_FEE.toString(),
    networkPassphrase: SANDBOX_NETWORK_PASSPHRASE,
    ...(options.timebounds ? { timebounds: options.timebounds } : {}),
  })
  for (const payment of payments) {
    builder.addOperation(
      Operation.payment({
        destination: payment.to.publicKey(),
        asset: USDC,
        amount: payment.amount,
        ...(payment.from ? { source: payment.from.publicKey() } : {}),
      }),
    )
  }
  if (!options.timebounds) builder.setTimeout(0)
  const tx = builder.build()
  for (const signer of options.signers ?? [alice]) tx.sign(signer)
  return tx
}

const state = (working: Map<string, WorkingAccount>) => ({
  now: NOW,
  ledgerSequence: 5,
  sourceId: alice.publicKey(),
  accounts: working,
  usdcIssuer: issuer.publicKey(),
})

function refusal(run: () => unknown): string {
  try {
    run()
  } catch (error) {
    if (error instanceof LedgerError) return error.code
    throw error
  }
  throw new Error('not refused')
}

describe('envelope rules', () => {
  it("hashes a transaction as stellar-base's tx.hash() does", () => {
    for (const amount of ['1', '2.5', '1000000']) {
      const tx = envelope(
        [
          { to: bob, amount },
          { to: carol, amount, from: bob },
        ],
        { signers: [alice, bob] },
      )
      expect(transactionHash(tx).equals(tx.hash())).toBe(true)
    }
  })

  it('moves USDC between working accounts and charges the base fee per operation', () => {
    const working = accounts(row(alice, 50n * STROOPS_PER_UNIT), row(bob, 0n))
    const checked = checkAndApply(envelope([{ to: bob, amount: '12.5' }], { fee: '1000' }), state(working))
    expect(checked.failure).toBeUndefined()
    expect(checked.fee).toBe(BASE_FEE)
    expect(working.get(alice.publicKey())!.usdc).toBe(375_000_000n)
    expect(working.get(bob.publicKey())!.usdc).toBe(125_000_000n)
    expect(working.get(alice.publicKey())!.sequence).toBe(101n)
    expect(checked.operations).toEqual([
      { index: 0, type: 'payment', from: alice.publicKey(), to: bob.publicKey(), asset: 'USDC', amount: 125_000_000n },
    ])
  })

  it('refuses a wrong sequence, a low fee, an expired envelope and a missing signature', () => {
    const fresh = () => accounts(row(alice, STROOPS_PER_UNIT), row(bob, 0n))
    expect(refusal(() => checkAndApply(envelope([{ to: bob, amount: '1' }], { sequence: '101' }), state(fresh())))).toBe('tx_bad_seq')
    expect(
      refusal(() =>
        checkAndApply(
          envelope(
            [
              { to: bob, amount: '1' },
              { to: bob, amount: '0.1' },
            ],
            { fee: '99' },
          ),
          state(fresh()),
        ),
      ),
    ).toBe('tx_insufficient_fee')
    const expired = { minTime: 0, maxTime: NOW / 1000 - 1 }
    expect(refusal(() => checkAndApply(envelope([{ to: bob, amount: '1' }], { timebounds: expired }), state(fresh())))).toBe('tx_too_late')
    expect(refusal(() => checkAndApply(envelope([{ to: bob, amount: '1' }], { signers: [bob] }), state(fresh())))).toBe('tx_bad_auth')
  })

  it('refuses a signature no account needs, and an operation source that did not sign', () => {
    const fresh = () => accounts(row(alice, STROOPS_PER_UNIT), row(bob, STROOPS_PER_UNIT), row(carol, 0n))
    expect(refusal(() => checkAndApply(envelope([{ to: bob, amount: '1' }], { signers: [alice, carol] }), state(fresh())))).toBe(
      'tx_bad_auth_extra',
    )
    const working = fresh()
    let error: unknown
    try {
      checkAndApply(envelope([{ to: carol, amount: '1', from: bob }]), state(working))
    } catch (caught) {
      error = caught
    }
    expect(error).toMatchObject({ code: 'tx_failed', operationCodes: ['op_bad_auth'] })
  })

  it('includes an underfunded or untrusted payment as failed, changing nothing but the fee and sequence', () => {
    const working = accounts(row(alice, STROOPS_PER_UNIT), row(bob, 0n), row(carol, 0n, { trustline: false }))
    const checked = checkAndApply(
      envelope([
        { to: bob, amount: '2' },
        { to: carol, amount: '0.5' },
      ]),
      state(working),
    )
    expect(checked.failure).toMatchObject({ code: 'tx_failed', operationCodes: ['op_underfunded', 'op_no_trust'] })
    expect(checked.failure?.included?.hash).toBe(checked.hash)
    expect(checked.fee).toBe(2n * BASE_FEE)
    expect(checked.sourceXlmAfterFee).toBe(100n * STROOPS_PER_UNIT - 2n * BASE_FEE)
    expect(working.get(alice.publicKey())!.usdc).toBe(STROOPS_PER_UNIT)
    expect(working.get(bob.publicKey())!.usdc).toBe(0n)
  })

  it('fails a payment that would pass the destination trustline limit', () => {
    const working = accounts(row(alice, 10n * STROOPS_PER_UNIT), row(bob, 0n, { limit: STROOPS_PER_UNIT }))
    const checked = checkAndApply(envelope([{ to: bob, amount: '1.0000001' }]), state(working))
    expect(checked.failure).toMatchObject({ operationCodes: ['op_line_full'] })
  })
})
