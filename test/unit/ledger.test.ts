import { Account, Asset, Keypair, Operation, TransactionBuilder, type Transaction } from '@stellar/stellar-sdk'
import { afterEach, describe, expect, it } from 'vitest'
import { bootstrap, CUSTOMER_USDC_ENDOWMENT, CUSTOMER_WALLET_COUNT } from '../../sandbox/bootstrap.js'
import type { SandboxIdentity } from '../../sandbox/context.js'
import { ManualClock } from '../../sandbox/clock.js'
import { openDatabase, runTransaction, type SandboxDb } from '../../sandbox/db/database.js'
import { GENESIS_XLM_ENDOWMENT, newKeypair, SANDBOX_NETWORK_PASSPHRASE, STROOPS_PER_UNIT } from '../../sandbox/ledger/ledger-accounts.js'
import { LedgerCloser } from '../../sandbox/ledger/ledger-closer.js'
import { LedgerError } from '../../sandbox/ledger/ledger-errors.js'
import { countTransactions, findAccount } from '../../sandbox/ledger/ledger-repository.js'
import { BASE_FEE } from '../../sandbox/ledger/envelope-rules.js'
import { LedgerService } from '../../sandbox/ledger/ledger-service.js'
import type { LedgerCloseMode, LedgerTransaction, TransferInput } from '../../sandbox/ledger/ledger-types.js'
import { seededRandom, type RandomSource } from '../../sandbox/random.js'
import { readState } from '../../sandbox/state/sandbox-state.js'

const GENESIS_TIME = Date.UTC(2026, 10, 21, 12)

const open: SandboxDb[] = []
afterEach(async () => {
  await Promise.all(open.splice(0).map((db) => db.destroy()))
})

interface TestLedger {
  db: SandboxDb
  clock: ManualClock
  ledger: LedgerService
  identity: SandboxIdentity
  customers: string[]
  merchants: string[]
}

async function newSandboxLedger(options: { seed?: string; closeMode?: LedgerCloseMode } = {}): Promise<TestLedger> {
  const db = await openDatabase({ file: ':memory:' })
  open.push(db)
  const clock = new ManualClock(GENESIS_TIME)
  const { identity } = await bootstrap(db, seededRandom(options.seed ?? 'ledger-test'), clock.now())
  const ledger = new LedgerService({ clock, closeMode: options.closeMode ?? 'instant' })
  const customers = (await ledger.listAccounts(db, { role: 'customer' })).map((account) => account.publicKey)
  const merchants = (await ledger.listAccounts(db, { role: 'merchant' })).map((account) => account.publicKey)
  return { db, clock, ledger, identity, customers, merchants }
}

const transfer = (t: TestLedger, input: TransferInput): Promise<LedgerTransaction> =>
  runTransaction(t.db, (trx) => t.ledger.transfer(trx, input))

const applyEnvelope = (t: TestLedger, envelope: string): Promise<LedgerTransaction> =>
  runTransaction(t.db, (trx) => t.ledger.applyEnvelope(trx, envelope))

async function keypairOf(db: SandboxDb, publicKey: string): Promise<Keypair> {
  const row = await findAccount(db, publicKey)
  if (!row?.secret) throw new Error(`no secret for ${publicKey}`)
  return Keypair.fromSecret(row.secret)
}

interface EnvelopeInput {
  source: string
  destination: string
  asset: Asset
  amount: string
  /** The sequence to build from (the transaction uses this + 1); defaults to the stored one. */
  sequence?: bigint
  signers?: Keypair[]
  fee?: string
  timebounds?: { minTime: number; maxTime: number }
  ledgerbounds?: { minLedger: number; maxLedger: number }
}

/** A payment envelope built the way an outside wallet would, with overridable details. */
async function buildEnvelope(t: TestLedger, input: EnvelopeInput): Promise<string> {
  const stored = (await t.ledger.getAccount(t.db, input.source))!.sequence
  const tx = new TransactionBuilder(new Account(input.source, String(input.sequence ?? stored)), {
    fee: input.fee ?? '100',
    networkPassphrase: SANDBOX_NETWORK_PASSPHRASE,
    timebounds: input.timebounds ?? { minTime: 0, maxTime: Math.floor(t.clock.now() / 1000) + 60 },
    ledgerbounds: input.ledgerbounds,
  })
    .addOperation(Operation.payment({ destination: input.destination, asset: input.asset, amount: input.amount }))
    .build()
  tx.sign(...(input.signers ?? [await keypairOf(t.db, input.source)]))
  return tx.toEnvelope().toXDR('base64')
}

/** Everything a refused transaction must leave as it was. */
async function snapshot(db: SandboxDb) {
  return {
    accounts: await db.selectFrom('ledger_accounts').selectAll().orderBy('public_key').execute(),
    ledgers: await db.selectFrom('ledger_ledgers').selectAll().orderBy('sequence').execute(),
    transactions: await countTransactions(db),
    operations: (await db.selectFrom('ledger_operations').selectAll().execute()).length,
  }
}

async function expectRefusedWithoutChange(
  t: TestLedger,
  attempt: () => Promise<unknown>,
  expected: { code: string; operationCodes?: string[] },
): Promise<void> {
  const before = await snapshot(t.db)
  const error = await attempt().then(
    () => undefined,
    (caught: unknown) => caught,
  )
  expect(error).toBeInstanceOf(LedgerError)
  expect(error).toMatchObject(expected)
  if (!expected.operationCodes) expect((error as LedgerError).operationCodes).toBeUndefined()
  expect(await snapshot(t.db)).toEqual(before)
}

const usdc = (t: TestLedger) => new Asset('USDC', t.identity.usdcIssuer)

describe('ledger transfers', () => {
  it('applies a real signed transaction whose id is the hash of the stored envelope', async () => {
    const t = await newSandboxLedger()
    const [payer] = t.customers
    const before = (await t.ledger.getAccount(t.db, payer!))!
    const applied = await transfer(t, { from: payer!, to: t.merchants[0]!, asset: 'USDC', amount: 1n, memo: 'pb-0123456789abcdef' })

    expect(applied.hash).toMatch(/^[0-9a-f]{64}$/)
    const row = await t.db.selectFrom('ledger_transactions').selectAll().where('hash', '=', applied.hash).executeTakeFirstOrThrow()
    const decoded = TransactionBuilder.fromXDR(row.envelope_xdr, SANDBOX_NETWORK_PASSPHRASE) as Transaction
    expect(decoded.hash().toString('hex')).toBe(applied.hash)
    expect(decoded.source).toBe(payer)
    expect(decoded.sequence).toBe(String(before.sequence + 1n))
    expect(decoded.fee).toBe('100')
    expect(decoded.memo.type).toBe('text')
    expect(String(decoded.memo.value)).toBe('pb-0123456789abcdef')
    expect(decoded.signatures).toHaveLength(1)
    expect(Keypair.fromPublicKey(payer!).verify(decoded.hash(), decoded.signatures[0]!.signature())).toBe(true)
    // The same bytes under another network's passphrase are another transaction, not signed by the payer.
    const elsewhere = TransactionBuilder.fromXDR(row.envelope_xdr, 'Test SDF Network ; September 2015') as Transaction
    expect(Keypair.fromPublicKey(payer!).verify(elsewhere.hash(), decoded.signatures[0]!.signature())).toBe(false)

    expect(applied).toMatchObject({
      sourceAccount: payer,
      sourceSequence: before.sequence + 1n,
      feeCharged: BASE_FEE,
      memoType: 'text',
      memo: 'pb-0123456789abcdef',
      appliedAt: GENESIS_TIME,
      operations: [{ index: 0, type: 'payment', from: payer, to: t.merchants[0], asset: 'USDC', amount: 1n }],
    })
    expect(await t.ledger.getTransaction(t.db, applied.hash)).toEqual(applied)
  })

  it('moves balances exactly, down to one stroop, and charges the fee into the fee pool', async () => {
    const t = await newSandboxLedger()
    const [payer, payee] = t.customers
    const payerBefore = (await t.ledger.balances(t.db, payer!))!
    const payeeBefore = (await t.ledger.balances(t.db, payee!))!
    const poolBefore = (await t.ledger.checkInvariants(t.db)).xlm.feePool

    await transfer(t, { from: payer!, to: payee!, asset: 'USDC', amount: 1n })
    await transfer(t, { from: payer!, to: payee!, asset: 'XLM', amount: 3n * STROOPS_PER_UNIT + 1n })

    expect(await t.ledger.balances(t.db, payer!)).toEqual({
      usdc: payerBefore.usdc - 1n,
      xlm: payerBefore.xlm - 3n * STROOPS_PER_UNIT - 1n - 2n * BASE_FEE,
    })
    expect(await t.ledger.balances(t.db, payee!)).toEqual({
      usdc: payeeBefore.usdc + 1n,
      xlm: payeeBefore.xlm + 3n * STROOPS_PER_UNIT + 1n,
    })
    expect((await t.ledger.checkInvariants(t.db)).xlm.feePool).toBe(poolBefore + 2n * BASE_FEE)
  })

  it('mints when the issuer pays and burns when the issuer is paid', async () => {
    const t = await newSandboxLedger()
    const issuedBefore = (await t.ledger.checkInvariants(t.db)).usdc.issued
    await transfer(t, { from: t.identity.usdcIssuer, to: t.merchants[0]!, asset: 'USDC', amount: 500n })
    expect((await t.ledger.checkInvariants(t.db)).usdc.issued).toBe(issuedBefore + 500n)
    await transfer(t, { from: t.customers[0]!, to: t.identity.usdcIssuer, asset: 'USDC', amount: 200n })
    const supply = await t.ledger.checkInvariants(t.db)
    expect(supply.usdc).toEqual({ issued: issuedBefore + 300n, circulating: issuedBefore + 300n })
    expect((await t.ledger.balances(t.db, t.identity.usdcIssuer))!.usdc).toBe(-(issuedBefore + 300n))
  })
})

describe('ledger refusals', () => {
  it('refuses an underfunded payment, in USDC or XLM, and changes nothing', async () => {
    const t = await newSandboxLedger()
    const [payer, payee] = t.customers
    const tooMuch = CUSTOMER_USDC_ENDOWMENT + 1n
    await expectRefusedWithoutChange(t, () => transfer(t, { from: payer!, to: payee!, asset: 'USDC', amount: tooMuch }), {
      code: 'tx_failed',
      operationCodes: ['op_underfunded'],
    })
    // The fee comes first: all the XLM is more than what is left after it.
    await expectRefusedWithoutChange(t, () => transfer(t, { from: payer!, to: payee!, asset: 'XLM', amount: GENESIS_XLM_ENDOWMENT }), {
      code: 'tx_failed',
      operationCodes: ['op_underfunded'],
    })
  })

  it('refuses a payment to an account that does not exist', async () => {
    const t = await newSandboxLedger()
    const stranger = newKeypair(seededRandom('stranger')).publicKey
    await expectRefusedWithoutChange(t, () => transfer(t, { from: t.customers[0]!, to: stranger, asset: 'USDC', amount: 1n }), {
      code: 'tx_failed',
      operationCodes: ['op_no_destination'],
    })
  })

  it('refuses a sequence number other than the stored one plus one, including a replay', async () => {
    const t = await newSandboxLedger()
    const [payer, payee] = t.customers
    const stored = (await t.ledger.getAccount(t.db, payer!))!.sequence
    const ahead = await buildEnvelope(t, { source: payer!, destination: payee!, asset: usdc(t), amount: '1', sequence: stored + 1n })
    await expectRefusedWithoutChange(t, () => applyEnvelope(t, ahead), { code: 'tx_bad_seq' })

    const good = await buildEnvelope(t, { source: payer!, destination: payee!, asset: usdc(t), amount: '1' })
    await applyEnvelope(t, good)
    await expectRefusedWithoutChange(t, () => applyEnvelope(t, good), { code: 'tx_bad_seq' })
  })

  it('refuses a transaction signed by another key than the source account', async () => {
    const t = await newSandboxLedger()
    const [payer, payee] = t.customers
    const wrongSigner = await buildEnvelope(t, {
      source: payer!,
      destination: payee!,
      asset: usdc(t),
      amount: '1',
      signers: [await keypairOf(t.db, payee!)],
    })
    await expectRefusedWithoutChange(t, () => applyEnvelope(t, wrongSigner), { code: 'tx_bad_auth' })
    const unsigned = await buildEnvelope(t, { source: payer!, destination: payee!, asset: usdc(t), amount: '1', signers: [] })
    await expectRefusedWithoutChange(t, () => applyEnvelope(t, unsigned), { code: 'tx_bad_auth' })
    const extra = await buildEnvelope(t, {
      source: payer!,
      destination: payee!,
      asset: usdc(t),
      amount: '1',
      signers: [await keypairOf(t.db, payer!), await keypairOf(t.db, payee!)],
    })
    await expectRefusedWithoutChange(t, () => applyEnvelope(t, extra), { code: 'tx_bad_auth_extra' })
  })

  it('refuses an asset other than XLM and the sandbox USDC', async () => {
    const t = await newSandboxLedger()
    const [payer, payee] = t.customers
    const otherIssuer = newKeypair(seededRandom('other issuer')).publicKey
    for (const asset of [new Asset('USDC', otherIssuer), new Asset('EURC', t.identity.usdcIssuer)]) {
      const envelope = await buildEnvelope(t, { source: payer!, destination: payee!, asset, amount: '1' })
      await expectRefusedWithoutChange(t, () => applyEnvelope(t, envelope), { code: 'tx_failed', operationCodes: ['op_no_trust'] })
    }
  })

  it('refuses a fee below 100 stroops per operation, and transactions outside their time or ledger bounds', async () => {
    const t = await newSandboxLedger()
    const [payer, payee] = t.customers
    const nowSeconds = Math.floor(t.clock.now() / 1000)
    const cheap = await buildEnvelope(t, { source: payer!, destination: payee!, asset: usdc(t), amount: '1', fee: '99' })
    await expectRefusedWithoutChange(t, () => applyEnvelope(t, cheap), { code: 'tx_insufficient_fee' })
    const early = await buildEnvelope(t, {
      source: payer!,
      destination: payee!,
      asset: usdc(t),
      amount: '1',
      timebounds: { minTime: nowSeconds + 10, maxTime: 0 },
    })
    await expectRefusedWithoutChange(t, () => applyEnvelope(t, early), { code: 'tx_too_early' })
    const expiring = await buildEnvelope(t, {
      source: payer!,
      destination: payee!,
      asset: usdc(t),
      amount: '1',
      timebounds: { minTime: 0, maxTime: nowSeconds + 30 },
    })
    t.clock.advance(31_000)
    await expectRefusedWithoutChange(t, () => applyEnvelope(t, expiring), { code: 'tx_too_late' })
    // The early one becomes valid once the business clock reaches its minimum time.
    expect((await applyEnvelope(t, early)).sourceAccount).toBe(payer)

    const current = (await t.ledger.currentLedger(t.db))!.sequence
    const pastLedger = await buildEnvelope(t, {
      source: payer!,
      destination: payee!,
      asset: usdc(t),
      amount: '1',
      ledgerbounds: { minLedger: 0, maxLedger: current },
    })
    await expectRefusedWithoutChange(t, () => applyEnvelope(t, pastLedger), { code: 'tx_too_late' })
    const inLedger = await buildEnvelope(t, {
      source: payer!,
      destination: payee!,
      asset: usdc(t),
      amount: '1',
      ledgerbounds: { minLedger: current, maxLedger: current + 1 },
    })
    expect((await applyEnvelope(t, inLedger)).ledgerSequence).toBe(current)
  })

  it('refuses a source without XLM for the fee', async () => {
    const t = await newSandboxLedger()
    const [payer, payee] = t.customers
    const { xlm } = (await t.ledger.balances(t.db, payer!))!
    await transfer(t, { from: payer!, to: payee!, asset: 'XLM', amount: xlm - BASE_FEE })
    expect((await t.ledger.balances(t.db, payer!))!.xlm).toBe(0n)
    await expectRefusedWithoutChange(t, () => transfer(t, { from: payer!, to: payee!, asset: 'USDC', amount: 1n }), {
      code: 'tx_insufficient_balance',
    })
  })

  it('refuses envelopes that are not transactions, and payments to a contract address', async () => {
    const t = await newSandboxLedger()
    await expectRefusedWithoutChange(t, () => applyEnvelope(t, 'not xdr'), { code: 'tx_malformed' })
    const toContract = { from: t.customers[0]!, to: t.identity.escrowContract, asset: 'USDC', amount: 1n } as const
    await expectRefusedWithoutChange(t, () => transfer(t, toContract), {
      code: 'tx_failed',
      operationCodes: ['op_malformed'],
    })
    await expectRefusedWithoutChange(t, () => transfer(t, { from: t.customers[0]!, to: t.customers[1]!, asset: 'USDC', amount: 0n }), {
      code: 'tx_failed',
      operationCodes: ['op_malformed'],
    })
  })

  it('applies only inside a database transaction', async () => {
    const t = await newSandboxLedger()
    await expect(t.ledger.transfer(t.db, { from: t.customers[0]!, to: t.customers[1]!, asset: 'USDC', amount: 1n })).rejects.toThrow(
      /inside a database transaction/,
    )
  })
})

describe('ledger supply', () => {
  it('stays conserved, with no negative balance, through many random transfers', async () => {
    const t = await newSandboxLedger()
    const random = seededRandom('supply')
    const parties = [...t.customers, ...t.merchants, t.identity.escrowCustody, t.identity.platformFeeAccount, t.identity.usdcIssuer]
    const start = await t.ledger.checkInvariants(t.db)
    let applied = 0
    let refused = 0
    for (let round = 0; round < 300; round++) {
      const from = parties[below(random, parties.length)]!
      const to = parties[below(random, parties.length)]!
      const asset = below(random, 3) === 0 ? 'XLM' : 'USDC'
      const held = (await t.ledger.balances(t.db, from))![asset === 'XLM' ? 'xlm' : 'usdc']
      // Up to a quarter more than the sender holds, so some are refused as underfunded.
      const ceiling = held > 0n ? held + held / 4n : 1_000n * STROOPS_PER_UNIT
      const amount = 1n + (random.bytes(8).readBigUInt64BE() % ceiling)
      try {
        await transfer(t, { from, to, asset, amount })
        applied++
      } catch (error) {
        expect(error).toBeInstanceOf(LedgerError)
        expect(error).toMatchObject({ code: 'tx_failed', operationCodes: ['op_underfunded'] })
        refused++
      }
    }
    expect(applied).toBeGreaterThan(100)
    expect(refused).toBeGreaterThan(0)

    const end = await t.ledger.checkInvariants(t.db)
    expect(end.usdc.circulating).toBe(end.usdc.issued)
    expect(end.xlm.inAccounts + end.xlm.feePool).toBe(end.xlm.totalCoins)
    expect(end.xlm.totalCoins).toBe(start.xlm.totalCoins)
    expect(end.xlm.feePool).toBe(start.xlm.feePool + BigInt(applied) * BASE_FEE)
    for (const account of await t.ledger.listAccounts(t.db)) {
      expect(account.balances.xlm).toBeGreaterThanOrEqual(0n)
      if (account.publicKey !== t.identity.usdcIssuer) expect(account.balances.usdc).toBeGreaterThanOrEqual(0n)
    }
  })
})

describe('applied listener', () => {
  it('runs inside the transaction that applied, and rolls everything back when it throws', async () => {
    const t = await newSandboxLedger()
    const seen: string[] = []
    const remove = t.ledger.onApplied(async (trx, tx) => {
      // The listener sees the transaction it is told about, in the same database transaction.
      expect((await t.ledger.getTransaction(trx, tx.hash))?.hash).toBe(tx.hash)
      seen.push(tx.memo ?? '')
      if (tx.memo === 'boom') throw new Error('listener failed')
    })
    await transfer(t, { from: t.customers[0]!, to: t.merchants[0]!, asset: 'USDC', amount: 10n, memo: 'fine' })

    const before = await snapshot(t.db)
    await expect(transfer(t, { from: t.customers[0]!, to: t.merchants[0]!, asset: 'USDC', amount: 10n, memo: 'boom' })).rejects.toThrow(
      'listener failed',
    )
    expect(await snapshot(t.db)).toEqual(before)
    expect(seen).toEqual(['fine', 'boom'])

    remove()
    await transfer(t, { from: t.customers[0]!, to: t.merchants[0]!, asset: 'USDC', amount: 10n, memo: 'boom' })
    expect(seen).toEqual(['fine', 'boom'])
  })
})

describe('payments of several accounts in one transaction', () => {
  it('signs with every operation source, applies all of it, and sets each operation source apart', async () => {
    const t = await newSandboxLedger()
    const [a, b, c] = t.customers as [string, string, string]
    const tx = await runTransaction(t.db, (trx) =>
      t.ledger.pay(trx, {
        source: a,
        payments: [
          { from: a, to: c, asset: 'USDC', amount: 5n },
          { from: b, to: c, asset: 'USDC', amount: 7n },
        ],
        memo: 'two payers',
      }),
    )
    const envelope = TransactionBuilder.fromXDR(tx.envelopeXdr, SANDBOX_NETWORK_PASSPHRASE) as Transaction
    expect(envelope.signatures).toHaveLength(2)
    expect(envelope.operations.map((op) => op.source)).toEqual([undefined, b])
    expect(tx.feeCharged).toBe(2n * BASE_FEE)
    expect(tx.operations.map(({ from, to, amount }) => ({ from, to, amount }))).toEqual([
      { from: a, to: c, amount: 5n },
      { from: b, to: c, amount: 7n },
    ])
    expect((await t.ledger.balances(t.db, c))!.usdc).toBe(CUSTOMER_USDC_ENDOWMENT + 12n)
  })

  it('applies nothing when one operation fails', async () => {
    const t = await newSandboxLedger()
    const [a, b, c] = t.customers as [string, string, string]
    const before = await snapshot(t.db)
    const attempt = runTransaction(t.db, (trx) =>
      t.ledger.pay(trx, {
        source: a,
        payments: [
          { from: a, to: c, asset: 'USDC', amount: 5n },
          { from: b, to: c, asset: 'USDC', amount: CUSTOMER_USDC_ENDOWMENT + 1n },
        ],
      }),
    )
    await expect(attempt).rejects.toMatchObject({ code: 'tx_failed', operationCodes: ['op_success', 'op_underfunded'] })
    expect(await snapshot(t.db)).toEqual(before)
  })
})

describe('one ledger for a transaction and the ones it causes', () => {
  it('closes once, after listeners that apply transactions of their own, and tells close listeners', async () => {
    const t = await newSandboxLedger({ closeMode: 'instant' })
    const [a, b] = t.customers as [string, string]
    const closes: Array<{ sequence: number; transactions: number }> = []
    t.ledger.onClosed((_trx, ledger) => {
      closes.push({ sequence: ledger.sequence, transactions: ledger.transactionCount })
    })
    t.ledger.onApplied(async (trx, tx) => {
      // An echo: the payee pays 1 stroop back, as a settlement follows a payment.
      if (tx.memo === 'ping') await t.ledger.transfer(trx, { from: b, to: a, asset: 'USDC', amount: 1n, memo: 'pong' })
    })
    const first = (await t.ledger.currentLedger(t.db))!.sequence
    const ping = await transfer(t, { from: a, to: b, asset: 'USDC', amount: 2n, memo: 'ping' })
    const [pong] = await t.ledger.listTransactions(t.db, { account: b, order: 'desc', limit: 1 })
    expect(pong!.memo).toBe('pong')
    expect([ping.ledgerSequence, pong!.ledgerSequence]).toEqual([first, first])
    expect(closes).toEqual([{ sequence: first, transactions: 2 }])
  })

  it('rolls the close back with everything else when a close listener throws', async () => {
    const t = await newSandboxLedger({ closeMode: 'instant' })
    t.ledger.onClosed(() => {
      throw new Error('close listener failed')
    })
    const before = await snapshot(t.db)
    await expect(transfer(t, { from: t.customers[0]!, to: t.merchants[0]!, asset: 'USDC', amount: 1n })).rejects.toThrow(
      'close listener failed',
    )
    expect(await snapshot(t.db)).toEqual(before)
  })
})

describe('ledger closing', () => {
  it('closes one ledger per transaction in instant mode', async () => {
    const t = await newSandboxLedger({ closeMode: 'instant' })
    const first = (await t.ledger.currentLedger(t.db))!.sequence
    const a = await transfer(t, { from: t.customers[0]!, to: t.merchants[0]!, asset: 'USDC', amount: 1n })
    t.clock.advance(5_000)
    const b = await transfer(t, { from: t.customers[1]!, to: t.merchants[0]!, asset: 'USDC', amount: 1n })
    expect([a.ledgerSequence, b.ledgerSequence]).toEqual([first, first + 1])
    expect(await t.ledger.getLedger(t.db, first)).toMatchObject({ transactionCount: 1, openedAt: GENESIS_TIME, closedAt: GENESIS_TIME })
    expect(await t.ledger.getLedger(t.db, first + 1)).toMatchObject({ transactionCount: 1, closedAt: GENESIS_TIME + 5_000 })
    expect(await t.ledger.currentLedger(t.db)).toMatchObject({ sequence: first + 2, closedAt: null, transactionCount: 0 })
  })

  it('groups transactions into the open ledger until it is closed in timer mode', async () => {
    const t = await newSandboxLedger({ closeMode: 'timer' })
    const first = (await t.ledger.currentLedger(t.db))!.sequence
    const grouped = []
    for (const customer of t.customers.slice(0, 3)) {
      grouped.push(await transfer(t, { from: customer, to: t.merchants[1]!, asset: 'USDC', amount: 7n }))
    }
    expect(grouped.map((tx) => tx.ledgerSequence)).toEqual([first, first, first])
    expect(await t.ledger.currentLedger(t.db)).toMatchObject({ sequence: first, closedAt: null, transactionCount: 3 })

    t.clock.advance(5_000)
    const closed = await runTransaction(t.db, (trx) => t.ledger.closeLedger(trx))
    expect(closed).toMatchObject({ sequence: first, transactionCount: 3, closedAt: GENESIS_TIME + 5_000 })
    const next = await transfer(t, { from: t.customers[3]!, to: t.merchants[1]!, asset: 'USDC', amount: 7n })
    expect(next.ledgerSequence).toBe(first + 1)
  })

  it('closes ledgers from a timer through LedgerCloser', async () => {
    const t = await newSandboxLedger({ closeMode: 'timer' })
    const first = (await t.ledger.currentLedger(t.db))!.sequence
    await transfer(t, { from: t.customers[0]!, to: t.merchants[0]!, asset: 'USDC', amount: 1n })
    let onClosed!: (sequence: number) => void
    const firstClose = new Promise<number>((resolve) => (onClosed = resolve))
    const closer = new LedgerCloser(t.db, t.ledger, { intervalMs: 1, onClosed: (ledger) => onClosed(ledger.sequence) })
    closer.start()
    expect(await firstClose).toBe(first)
    await closer.stop()
    expect(await t.ledger.getLedger(t.db, first)).toMatchObject({ transactionCount: 1, closedAt: GENESIS_TIME })
  })
})

describe('ledger history', () => {
  it('lists an account’s transactions by position, in either order, from a cursor', async () => {
    const t = await newSandboxLedger()
    const [alice, bob, carol] = t.customers
    const ab = await transfer(t, { from: alice!, to: bob!, asset: 'USDC', amount: 1n })
    const cb = await transfer(t, { from: carol!, to: bob!, asset: 'USDC', amount: 2n })
    const ca = await transfer(t, { from: carol!, to: alice!, asset: 'XLM', amount: 3n })
    await transfer(t, { from: bob!, to: carol!, asset: 'USDC', amount: 4n })

    const funding = (await t.ledger.listTransactions(t.db, { account: alice!, limit: 1 }))[0]!
    expect(funding.sourceAccount).toBe(t.identity.usdcIssuer)
    const aliceNewestFirst = await t.ledger.listTransactions(t.db, { account: alice!, order: 'desc', limit: 2 })
    expect(aliceNewestFirst.map((tx) => tx.hash)).toEqual([ca.hash, ab.hash])
    const older = await t.ledger.listTransactions(t.db, { account: alice!, order: 'desc', after: aliceNewestFirst[1]!.position })
    expect(older.map((tx) => tx.hash)).toEqual([funding.hash])
    const bobAfterFirst = await t.ledger.listTransactions(t.db, { account: bob!, after: ab.position, limit: 1 })
    expect(bobAfterFirst.map((tx) => tx.hash)).toEqual([cb.hash])
    expect(bobAfterFirst[0]!.operations[0]).toMatchObject({ from: carol, to: bob, asset: 'USDC', amount: 2n })
  })
})

describe('genesis', () => {
  it('funds five customer wallets and a custody account through real transactions in a closed genesis ledger', async () => {
    const t = await newSandboxLedger()
    expect(t.customers).toHaveLength(CUSTOMER_WALLET_COUNT)
    const custody = (await t.ledger.getAccount(t.db, t.identity.escrowCustody))!
    expect(custody).toMatchObject({ role: 'escrow', label: 'Escrow contract custody', balances: { xlm: GENESIS_XLM_ENDOWMENT, usdc: 0n } })
    expect(custody.publicKey).toMatch(/^G/)
    expect(await readState(t.db, 'escrow_custody')).toBe(custody.publicKey)
    expect(t.identity.escrowContract).toMatch(/^C/)

    const accounts = await t.ledger.listAccounts(t.db)
    for (const account of accounts.filter((a) => a.publicKey.startsWith('G') && a.publicKey !== t.identity.usdcIssuer)) {
      expect(account.balances.xlm).toBe(GENESIS_XLM_ENDOWMENT)
      // Accounts made in ledger 1 start at sequence 1 << 32, as on Stellar.
      expect(account.sequence).toBe(1n << 32n)
    }
    const customers = accounts.filter((a) => a.role === 'customer')
    expect(customers.map((a) => a.label)).toEqual(['Customer 1', 'Customer 2', 'Customer 3', 'Customer 4', 'Customer 5'])
    for (const customer of customers) expect(customer.balances.usdc).toBe(CUSTOMER_USDC_ENDOWMENT)
    const issuer = (await t.ledger.getAccount(t.db, t.identity.usdcIssuer))!
    expect(issuer).toMatchObject({ sequence: (1n << 32n) + 5n, balances: { xlm: GENESIS_XLM_ENDOWMENT - 5n * BASE_FEE } })

    const genesis = await t.ledger.listTransactions(t.db)
    expect(genesis).toHaveLength(CUSTOMER_WALLET_COUNT)
    expect(genesis.every((tx) => tx.ledgerSequence === 1 && tx.sourceAccount === t.identity.usdcIssuer)).toBe(true)
    expect(await t.ledger.getLedger(t.db, 1)).toMatchObject({ transactionCount: 5, closedAt: GENESIS_TIME })
    expect((await t.ledger.currentLedger(t.db))!.sequence).toBe(2)
    const supply = await t.ledger.checkInvariants(t.db)
    expect(supply.usdc.issued).toBe(BigInt(CUSTOMER_WALLET_COUNT) * CUSTOMER_USDC_ENDOWMENT)
    expect(supply.xlm.feePool).toBe(5n * BASE_FEE)
  })

  it('is the same, keys and transaction hashes alike, for the same seed and start time', async () => {
    const describeGenesis = async (seed: string) => {
      const t = await newSandboxLedger({ seed })
      return { accounts: await t.ledger.listAccounts(t.db), hashes: (await t.ledger.listTransactions(t.db)).map((tx) => tx.hash) }
    }
    const a = await describeGenesis('x')
    const b = await describeGenesis('x')
    const c = await describeGenesis('y')
    expect(b).toEqual(a)
    expect(a.hashes).toHaveLength(CUSTOMER_WALLET_COUNT)
    expect(c.accounts.map((account) => account.publicKey)).not.toEqual(a.accounts.map((account) => account.publicKey))
    expect(c.hashes).not.toEqual(a.hashes)
  })
})

/** A uniform integer in [0, n) from the seeded stream. */
function below(random: RandomSource, n: number): number {
  return random.bytes(4).readUInt32BE() % n
}

describe('transactions included as failed', () => {
  it('recordFailed charges the fee and uses the sequence, changes nothing else, and is served as failed with every operation result', async () => {
    const t = await newSandboxLedger()
    const [a, b, c] = t.customers as [string, string, string]
    const attempt = runTransaction(t.db, (trx) =>
      t.ledger.pay(trx, {
        source: a,
        payments: [
          { from: a, to: c, asset: 'USDC', amount: 5n },
          { from: b, to: c, asset: 'USDC', amount: CUSTOMER_USDC_ENDOWMENT + 1n },
          { from: a, to: c, asset: 'USDC', amount: 7n },
        ],
      }),
    )
    const error = (await attempt.catch((e: unknown) => e)) as LedgerError
    // As stellar-core reports it: a result for every operation, not only up to the failing one.
    expect(error).toMatchObject({ code: 'tx_failed', operationCodes: ['op_success', 'op_underfunded', 'op_success'] })
    expect(error.included).toBeDefined()
    const before = await t.ledger.getAccount(t.db, a)
    const poolBefore = (await t.ledger.checkInvariants(t.db)).xlm.feePool
    const failed = await runTransaction(t.db, (trx) => t.ledger.recordFailed(trx, error.included!.envelopeXdr))
    expect(failed).toMatchObject({
      hash: error.included!.hash,
      successful: false,
      feeCharged: 3n * BASE_FEE,
      operationResults: ['op_success', 'op_underfunded', 'op_success'],
    })
    const after = await t.ledger.getAccount(t.db, a)
    expect(after!.sequence).toBe(before!.sequence + 1n)
    expect(after!.balances).toEqual({ usdc: before!.balances.usdc, xlm: before!.balances.xlm - 3n * BASE_FEE })
    expect((await t.ledger.balances(t.db, c))!.usdc).toBe(CUSTOMER_USDC_ENDOWMENT)
    expect((await t.ledger.checkInvariants(t.db)).xlm.feePool).toBe(poolBefore + 3n * BASE_FEE)
    // Listed only when failed transactions are asked for.
    expect((await t.ledger.listTransactions(t.db, { account: a, order: 'desc', limit: 1 }))[0]?.hash).not.toBe(failed!.hash)
    expect((await t.ledger.listTransactions(t.db, { account: a, order: 'desc', limit: 1, includeFailed: true }))[0]?.hash).toBe(
      failed!.hash,
    )
    // Recording it again is refused (its sequence is used): nothing more is written.
    expect(await runTransaction(t.db, (trx) => t.ledger.recordFailed(trx, error.included!.envelopeXdr))).toBeUndefined()
  })

  it('recordFailed writes nothing for a transaction that would now succeed', async () => {
    const t = await newSandboxLedger()
    const [a, b] = t.customers as [string, string]
    const error = (await transfer(t, { from: a, to: b, asset: 'USDC', amount: CUSTOMER_USDC_ENDOWMENT + 1n }).catch(
      (e: unknown) => e,
    )) as LedgerError
    await transfer(t, { from: b, to: a, asset: 'USDC', amount: 1n })
    const before = await snapshot(t.db)
    expect(await runTransaction(t.db, (trx) => t.ledger.recordFailed(trx, error.included!.envelopeXdr))).toBeUndefined()
    expect(await snapshot(t.db)).toEqual(before)
  })
})

describe('a listener whose own payment fails', () => {
  it('rolls back the transaction it followed, and leaves nothing to record as failed', async () => {
    const t = await newSandboxLedger()
    const [a, b] = t.customers as [string, string]
    t.ledger.onApplied(async (trx, tx) => {
      if (tx.memo === 'then overdraw')
        await t.ledger.transfer(trx, { from: b, to: a, asset: 'USDC', amount: CUSTOMER_USDC_ENDOWMENT * 10n })
    })
    const before = await snapshot(t.db)
    const error = (await transfer(t, { from: a, to: b, asset: 'USDC', amount: 1n, memo: 'then overdraw' }).catch(
      (e: unknown) => e,
    )) as LedgerError
    expect(error).toMatchObject({ code: 'tx_failed', operationCodes: ['op_underfunded'] })
    expect(error.included).toBeUndefined()
    expect(await snapshot(t.db)).toEqual(before)
  })
})
