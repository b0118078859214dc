// The rest of Horizon that wallets and scripts call, read only through @stellar/stellar-sdk's
// Horizon.Server: result_meta_xdr (decoded with xdr.TransactionMeta), effects of accounts,
// transactions, operations and ledgers, a ledger's transactions and payments, a transaction's
// operations, payments joined with their transactions, one operation; each agreeing with the
// sandbox's own view of its ledger.
import { Asset, Horizon, Keypair, Memo, Operation, StrKey, TransactionBuilder, xdr } from '@stellar/stellar-sdk'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { LedgerTransaction, SandboxWallet } from '../../src/client/types.js'
import { startTestSandbox, type TestSandbox } from '../../harness/sandbox.js'
import { waitFor } from '../../harness/wait.js'

describe('Horizon: meta, effects, ledgers and joins through the SDK', () => {
  let sandbox: TestSandbox
  let server: Horizon.Server
  let payer: SandboxWallet
  let payee: SandboxWallet
  let paid: Horizon.HorizonApi.SubmitTransactionResponse
  let view: LedgerTransaction

  const pay = async (from: SandboxWallet, to: string, amount: string, memo?: string) => {
    const builder = new TransactionBuilder(await server.loadAccount(from.publicKey), {
      fee: '100',
      networkPassphrase: sandbox.identity.networkPassphrase,
    })
      .addOperation(Operation.payment({ destination: to, asset: new Asset('USDC', sandbox.identity.usdcIssuer), amount }))
      .setTimeout(60)
    if (memo) builder.addMemo(Memo.text(memo))
    const tx = builder.build()
    tx.sign(Keypair.fromSecret(from.secret))
    return server.submitTransaction(tx)
  }

  beforeAll(async () => {
    sandbox = await startTestSandbox({ dueWorkIntervalMs: 0 })
    server = new Horizon.Server(`${sandbox.url}/horizon`, { allowHttp: true })
    payer = await sandbox.admin.sandbox.createWallet({ usdc: '100' })
    payee = await sandbox.admin.sandbox.createWallet({ usdc: '0' })
    paid = await pay(payer, payee.publicKey, '12.5', 'effects')
    view = await sandbox.admin.ledger.transaction(paid.hash)
  })
  afterAll(() => sandbox?.stop())

  it('serves result_meta_xdr that xdr.TransactionMeta decodes: the trustline balances before and after, as the ledger has them', async () => {
    const record = await server.transactions().transaction(paid.hash).call()
    const meta = xdr.TransactionMeta.fromXDR(record.result_meta_xdr, 'base64')
    expect(meta.switch()).toBe(2)
    const v2 = meta.v2()
    // The sequence number used, before the operations.
    const entry = (change: xdr.LedgerEntryChange) => change.value() as xdr.LedgerEntry
    const sequence = v2.txChangesBefore().map((change) => entry(change).data().account().seqNum().toString())
    expect(sequence).toEqual([String(BigInt(view.sourceSequence) - 1n), view.sourceSequence])
    const [operation] = v2.operations()
    const trustlines = operation!.changes().map((change) => {
      const line = entry(change).data().trustLine()
      return [change.switch().name, StrKey.encodeEd25519PublicKey(line.accountId().ed25519()), line.balance().toString()]
    })
    expect(trustlines).toEqual([
      ['ledgerEntryState', payer.publicKey, '1000000000'],
      ['ledgerEntryUpdated', payer.publicKey, '875000000'],
      ['ledgerEntryState', payee.publicKey, '0'],
      ['ledgerEntryUpdated', payee.publicKey, '125000000'],
    ])
    // What the meta ends with is what Horizon and the sandbox's ledger hold now.
    const balances = (await server.loadAccount(payee.publicKey)).balances
    expect(balances.find((b) => b.asset_type === 'credit_alphanum4')!.balance).toBe('12.5000000')
    const feeChanges = xdr.LedgerEntryChanges.fromXDR(record.fee_meta_xdr, 'base64')
    const [before, after] = feeChanges.map((change) => BigInt(entry(change).data().account().balance().toString()))
    expect(before! - after!).toBe(BigInt(view.feeCharged))
  })

  it('lists effects of an account, a transaction and an operation: account_credited and account_debited', async () => {
    const forTx = await server.effects().forTransaction(paid.hash).call()
    expect(forTx.records.map((e) => [e.type, e.account, (e as unknown as { amount: string }).amount])).toEqual([
      ['account_credited', payee.publicKey, '12.5000000'],
      ['account_debited', payer.publicKey, '12.5000000'],
    ])
    expect(forTx.records.every((e) => (e as unknown as { asset_code: string }).asset_code === 'USDC')).toBe(true)
    const [operation] = (await server.operations().forTransaction(paid.hash).call()).records
    expect(operation).toMatchObject({
      type: 'payment',
      transaction_hash: paid.hash,
      from: payer.publicKey,
      to: payee.publicKey,
      amount: '12.5000000',
    })
    expect((await server.effects().forOperation(operation!.id).call()).records.map((e) => e.paging_token)).toEqual(
      forTx.records.map((e) => e.paging_token),
    )
    expect(await server.operations().operation(operation!.id).call()).toMatchObject({ id: operation!.id, transaction_hash: paid.hash })

    // The payer's effects: credited by its funding, debited by its payment, matching the ledger view.
    const mine = await server.effects().forAccount(payer.publicKey).limit(200).call()
    const history = (await sandbox.admin.ledger.transactions({ account: payer.publicKey, limit: 200 })).items.filter((tx) => tx.successful)
    const expected = history.flatMap((tx) =>
      tx.operations.flatMap((op) => [
        ...(op.to === payer.publicKey ? [['account_credited', op.amount]] : []),
        ...(op.from === payer.publicKey ? [['account_debited', op.amount]] : []),
      ]),
    )
    expect(mine.records.map((e) => [e.type, (e as unknown as { amount: string }).amount])).toEqual(expected)
    // Paging by effect tokens, both ways.
    const first = await server.effects().forAccount(payer.publicKey).limit(1).call()
    const second = await first.next()
    expect(second.records.map((e) => e.paging_token)).toEqual([mine.records[1]!.paging_token])
    expect((await second.prev()).records.map((e) => e.paging_token)).toEqual([mine.records[0]!.paging_token])
  })

  it("lists a ledger's transactions, payments and operations", async () => {
    const ledger = view.ledger
    const transactions = await server.transactions().forLedger(ledger).call()
    expect(transactions.records.map((tx) => tx.hash)).toEqual([paid.hash])
    const payments = await server.payments().forLedger(ledger).call()
    expect(payments.records.map((p) => p.transaction_hash)).toEqual([paid.hash])
    expect((await server.operations().forLedger(ledger).call()).records.map((p) => p.id)).toEqual(payments.records.map((p) => p.id))
    expect((await server.effects().forLedger(ledger).call()).records).toHaveLength(2)
    // The funding's ledger holds the funding only.
    const funding = await sandbox.admin.ledger.transactions({ account: payer.publicKey, limit: 1 })
    const fundingLedger = await server.transactions().forLedger(funding.items[0]!.ledger).call()
    expect(fundingLedger.records.map((tx) => tx.hash)).toEqual([funding.items[0]!.hash])
  })

  it('joins payments with their transactions', async () => {
    const page = await server.payments().forAccount(payer.publicKey).join('transactions').limit(10).call()
    expect(page.records.length).toBeGreaterThan(1)
    for (const record of page.records) {
      const embedded = await record.transaction()
      expect(embedded.hash).toBe(record.transaction_hash)
      expect(embedded.successful).toBe(true)
    }
    const accountTransactions = await server.transactions().forAccount(payer.publicKey).limit(10).call()
    expect(accountTransactions.records.map((tx) => tx.hash)).toContain(paid.hash)
  })

  it("streams an account's effects as payments land", async () => {
    const seen: string[] = []
    const close = server
      .effects()
      .forAccount(payee.publicKey)
      .cursor('now')
      .stream({ onmessage: (effect) => void seen.push(`${effect.type} ${(effect as unknown as { amount: string }).amount}`) })
    try {
      await pay(payer, payee.publicKey, '1.25')
      await waitFor('the streamed effect', () => seen.length > 0)
      expect(seen).toEqual(['account_credited 1.2500000'])
    } finally {
      close()
    }
  })
})
