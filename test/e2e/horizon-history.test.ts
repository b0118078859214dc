// What the sandbox's Horizon API shows of the ledger's history, read with @stellar/stellar-sdk:
// every movement the sandbox makes itself under the hash the payments API reports, money whose
// memo matches no payment, Horizon's paging, its problem documents, root, fee_stats and ledgers.
import { Asset, Horizon, Keypair, Memo, NotFoundError, Operation, TransactionBuilder, xdr } from '@stellar/stellar-sdk'
import { createParser, type EventSourceMessage } from 'eventsource-parser'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { LedgerTransaction, Payment, Refund, SandboxWallet } from '../../src/client/types.js'
import { readResponse, ledgerSupply, startTestSandbox, type TestSandbox } from '../../harness/sandbox.js'
import { waitFor } from '../../harness/wait.js'

describe('Horizon API: history, paging and problems', () => {
  let sandbox: TestSandbox
  let server: Horizon.Server
  let horizon: string
  let wallet: SandboxWallet

  /** A USDC payment from the wallet with a text memo, submitted with the SDK. */
  const payFromWallet = async (destination: string, amount: string, memo: string) => {
    const tx = new TransactionBuilder(await server.loadAccount(wallet.publicKey), {
      fee: '100',
      networkPassphrase: sandbox.identity.networkPassphrase,
    })
      .addOperation(Operation.payment({ destination, asset: new Asset('USDC', sandbox.identity.usdcIssuer), amount }))
      .addMemo(Memo.text(memo))
      .setTimeout(60)
      .build()
    tx.sign(Keypair.fromSecret(wallet.secret))
    return server.submitTransaction(tx)
  }

  beforeAll(async () => {
    sandbox = await startTestSandbox({ dueWorkIntervalMs: 0 })
    horizon = `${sandbox.url}/horizon`
    server = new Horizon.Server(horizon, { allowHttp: true })
    wallet = await sandbox.admin.sandbox.createWallet({ usdc: '50', xlm: '20' })
  })
  afterAll(() => sandbox?.stop())

  it('creates wallets with the amounts asked for', async () => {
    expect(wallet.balances).toEqual({ USDC: '50.0000000', XLM: '20.0000000' })
    const account = await server.loadAccount(wallet.publicKey)
    expect(account.balances.map((b) => b.balance)).toEqual(['50.0000000', '20.0000000'])
  })

  it('shows every movement the sandbox makes itself under the hashes of stellarTxId, settlement_stellarTxId and settlement_Id', async () => {
    const payment = await sandbox.direct.payments.create({ amount: { value: 2000, currency: 'USD' }, description: 'Simulated' })
    const paid = await sandbox.direct.sandbox.pay(payment.id)
    const refund = await sandbox.direct.request<Refund>('POST', `/payments/${payment.id}/refunds`, { body: { amount: 500 } })
    const escrowed = await sandbox.escrow.payments.create({ amount: { value: 1000, currency: 'USD' }, description: 'Escrowed' })
    await sandbox.escrow.sandbox.pay(escrowed.id)
    const released = await sandbox.escrow.request<Payment>('POST', `/sandbox/payments/${escrowed.id}/escrow/release`)

    const memo = new URL(payment.qrCode).searchParams.get('memo')
    const destination = new URL(payment.qrCode).searchParams.get('destination')
    const movements: Array<[string, string | undefined, string | null]> = [
      ['customer payment', paid.stellarTxId, memo],
      ['settlement', paid.settlement_stellarTxId, memo],
      ['refund', refund.settlement_Id, memo],
      ['escrow funding', released.stellarTxId, new URL(escrowed.qrCode).searchParams.get('memo')],
      ['escrow release', released.settlement_stellarTxId, new URL(escrowed.qrCode).searchParams.get('memo')],
    ]
    for (const [what, hash, expectedMemo] of movements) {
      expect(hash, what).toMatch(/^[0-9a-f]{64}$/)
      const tx = await server.transactions().transaction(hash!).call()
      expect(tx, what).toMatchObject({ hash, successful: true, memo_type: 'text', memo: expectedMemo })
      expect(xdr.TransactionResult.fromXDR(tx.result_xdr, 'base64').result().switch().name, what).toBe('txSuccess')
      // The admin view of the ledger knows it by the same hash.
      expect((await sandbox.admin.ledger.transaction(hash!)).hash, what).toBe(hash)
    }
    const customerPayment = await server.operations().forTransaction(paid.stellarTxId!).call()
    expect(customerPayment.records[0]).toMatchObject({ from: paid.sender_account, to: destination, amount: '20.0000000' })
    const refundPayment = await server.payments().forTransaction(refund.settlement_Id).call()
    const refundOperation = (await sandbox.admin.ledger.transaction(refund.settlement_Id)).operations[0]!
    expect(refundPayment.records[0]).toMatchObject({
      from: refundOperation.from,
      to: paid.sender_account,
      amount: refundOperation.amount,
      asset_code: 'USDC',
    })
  })

  it('lands a payment whose memo matches no payment, and the ledger view reports it as unmatched', async () => {
    const payment = await sandbox.direct.payments.create({ amount: { value: 100, currency: 'USD' }, description: 'Not this one' })
    const destination = new URL(payment.qrCode).searchParams.get('destination')!
    const before = await server.loadAccount(destination)
    const result = await payFromWallet(destination, '1.5', 'no-such-memo')
    expect(result.successful).toBe(true)

    const after = await server.loadAccount(destination)
    const usdc = (account: Horizon.AccountResponse) => account.balances.find((b) => b.asset_type === 'credit_alphanum4')!.balance
    expect(Number(usdc(after)) * 1e7 - Number(usdc(before)) * 1e7).toBe(15_000_000)
    expect((await sandbox.direct.payments.get(payment.id)).status).toBe('open')

    const view = await sandbox.admin.ledger.transaction(result.hash)
    expect(view).toMatchObject({
      memo: 'no-such-memo',
      payment: null,
      unmatched: true,
      horizonUrl: `${horizon}/transactions/${result.hash}`,
    })
    const { items } = await sandbox.admin.ledger.transactions({ account: wallet.publicKey, order: 'desc', limit: 5 })
    expect(items.find((tx: LedgerTransaction) => tx.hash === result.hash)).toMatchObject({ unmatched: true, payment: null })
    // A transaction whose memo is a payment's names that payment.
    const matched = await payFromWallet(destination, '1', new URL(payment.qrCode).searchParams.get('memo')!)
    expect(await sandbox.admin.ledger.transaction(matched.hash)).toMatchObject({ payment: payment.id, unmatched: false })
  })

  describe('paging', () => {
    let hashes: string[]

    beforeAll(async () => {
      // Four payments from a fresh wallet: its whole history is the funding and these.
      wallet = await sandbox.admin.sandbox.createWallet({ usdc: '20' })
      const merchant = (await sandbox.admin.sandbox.merchants()).items[0]!.account
      hashes = [wallet.fundingTxId!]
      for (const amount of ['1', '2', '3', '4']) hashes.push((await payFromWallet(merchant, amount, `page ${amount}`)).hash)
    })

    it("pages an account's transactions with limit, order and the next/prev cursors", async () => {
      const first = await server.transactions().forAccount(wallet.publicKey).limit(2).call()
      expect(first.records.map((tx) => tx.hash)).toEqual(hashes.slice(0, 2))
      const second = await first.next()
      expect(second.records.map((tx) => tx.hash)).toEqual(hashes.slice(2, 4))
      const third = await second.next()
      expect(third.records.map((tx) => tx.hash)).toEqual(hashes.slice(4))
      expect((await third.next()).records).toEqual([])
      const back = await third.prev()
      expect(back.records.map((tx) => tx.hash)).toEqual([hashes[3], hashes[2]])

      const newest = await server.transactions().forAccount(wallet.publicKey).order('desc').limit(3).call()
      expect(newest.records.map((tx) => tx.hash)).toEqual([...hashes].reverse().slice(0, 3))
      const fromCursor = await server.transactions().forAccount(wallet.publicKey).cursor(first.records[0]!.paging_token).limit(10).call()
      expect(fromCursor.records.map((tx) => tx.hash)).toEqual(hashes.slice(1))
      expect((await server.transactions().forAccount(wallet.publicKey).cursor('now').call()).records).toEqual([])
    })

    it("pages an account's payments the same way, each an operation with its own paging token", async () => {
      const all = await server.payments().forAccount(wallet.publicKey).limit(200).call()
      expect(all.records.map((p) => p.transaction_hash)).toEqual(hashes)
      const amounts = all.records.map((p) => (p as unknown as { amount: string }).amount)
      expect(amounts).toEqual(['20.0000000', '1.0000000', '2.0000000', '3.0000000', '4.0000000'])
      const tokens = all.records.map((p) => BigInt(p.paging_token))
      expect(tokens).toEqual([...tokens].sort((a, b) => (a < b ? -1 : 1)))

      const page = await server.payments().forAccount(wallet.publicKey).cursor(all.records[1]!.paging_token).limit(2).call()
      expect(page.records.map((p) => p.transaction_hash)).toEqual(hashes.slice(2, 4))
      const desc = await server.payments().forAccount(wallet.publicKey).cursor(all.records[3]!.paging_token).order('desc').limit(2).call()
      expect(desc.records.map((p) => p.transaction_hash)).toEqual([hashes[2], hashes[1]])
      // A transaction's paging token is a cursor for its operations too, as on Horizon.
      const tx = await server.transactions().transaction(hashes[2]!).call()
      const fromTx = await server.payments().forAccount(wallet.publicKey).cursor(tx.paging_token).limit(1).call()
      expect(fromTx.records.map((p) => p.transaction_hash)).toEqual([hashes[2]])
      // The operation's own link leads back to it.
      const op = await server.operations().operation(all.records[1]!.id).call()
      expect(op).toMatchObject({ id: all.records[1]!.id, transaction_hash: hashes[1] })
    })

    it('streams from a paging token: what came after it, then what lands', async () => {
      const all = await server.payments().forAccount(wallet.publicKey).limit(200).call()
      const seen: string[] = []
      const close = server
        .payments()
        .forAccount(wallet.publicKey)
        .cursor(all.records[2]!.paging_token)
        .stream({ onmessage: (record) => void seen.push((record as unknown as { transaction_hash: string }).transaction_hash) })
      try {
        await waitFor('the records after the cursor', () => seen.length >= 2)
        expect(seen).toEqual(hashes.slice(3))
        const merchant = (await sandbox.admin.sandbox.merchants()).items[0]!.account
        const { hash } = await payFromWallet(merchant, '0.5', 'streamed on')
        await waitFor('the new payment', () => seen.includes(hash))
        expect(seen).toEqual([...hashes.slice(3), hash])
        hashes.push(hash)
      } finally {
        close()
      }
    })

    it('opens a raw event stream with "hello" and resumes after its Last-Event-ID', async () => {
      const all = await server.payments().forAccount(wallet.publicKey).limit(200).call()
      const abort = new AbortController()
      const response = await fetch(`${horizon}/accounts/${wallet.publicKey}/payments`, {
        headers: { accept: 'text/event-stream', 'last-event-id': all.records[3]!.paging_token },
        signal: abort.signal,
      })
      expect(response.status).toBe(200)
      expect(response.headers.get('content-type')).toMatch(/^text\/event-stream/)
      const events: EventSourceMessage[] = []
      const parser = createParser({ onEvent: (event) => void events.push(event) })
      const reader = response.body!.getReader()
      try {
        await waitFor('two events', async () => {
          const { value } = await reader.read()
          parser.feed(new TextDecoder().decode(value))
          return events.length >= 2
        })
      } finally {
        abort.abort()
      }
      expect(events[0]).toMatchObject({ event: 'open', data: '"hello"' })
      const first = JSON.parse(events[1]!.data) as { paging_token: string; transaction_hash: string }
      expect(events[1]!.id).toBe(first.paging_token)
      expect(first.transaction_hash).toBe(all.records[4]!.transaction_hash)
    })

    it('refuses bad paging values with a 400 problem naming the field', async () => {
      for (const query of [
        'limit=0',
        'limit=201',
        'order=up',
        'cursor=-1',
        'cursor=abc',
        'cursor=99999999999999999999',
        'limit=1&limit=2',
        'page=2',
      ]) {
        const response = await readResponse(await fetch(`${horizon}/accounts/${wallet.publicKey}/payments?${query}`))
        expect(response.status, query).toBe(400)
        expect(response.json, query).toMatchObject({ type: 'https://stellar.org/horizon-errors/bad_request', status: 400, statusCode: 400 })
      }
    })
  })

  it("answers unknown accounts, transactions, operations and ledgers with Horizon's 404 problem", async () => {
    const nobody = Keypair.random().publicKey()
    await expect(server.loadAccount(nobody)).rejects.toBeInstanceOf(NotFoundError)
    for (const path of [
      `/accounts/${nobody}`,
      `/accounts/${nobody}/payments`,
      `/transactions/${'0'.repeat(64)}`,
      '/operations/4096',
      `/operations/${(1n << 40n) + 1n}`,
      '/ledgers/99999',
      '/nothing/here',
    ]) {
      const response = await readResponse(await fetch(`${horizon}${path}`))
      expect(response.status, path).toBe(404)
      expect(response.json, path).toMatchObject({
        type: 'https://stellar.org/horizon-errors/not_found',
        title: 'Resource Missing',
        status: 404,
        statusCode: 404,
        reason: 'Not Found',
      })
      expect(response.headers.get('content-type')).toMatch(/^application\/json/)
    }
    // A malformed id is the caller's mistake, not a missing resource.
    const malformed = await readResponse(await fetch(`${horizon}/accounts/GNOTANACCOUNT`))
    expect(malformed.status).toBe(400)
    expect(malformed.json).toMatchObject({ extras: { invalid_field: 'account_id' } })
  })

  it('serves the root, fee_stats and closed ledgers', async () => {
    const root = await server.root()
    expect(root.network_passphrase).toBe(sandbox.identity.networkPassphrase)
    expect(root.history_latest_ledger).toBeGreaterThan(1)

    const fees = await server.feeStats()
    expect(fees.last_ledger_base_fee).toBe('100')
    expect(fees.last_ledger).toBe(String(root.history_latest_ledger))
    expect(fees.fee_charged).toMatchObject({ min: '100', max: '100', mode: '100', p50: '100', p99: '100' })
    expect(await server.fetchBaseFee()).toBe(100)

    // The SDK types a single ledger as a page; Horizon (and the sandbox) answer with the record.
    const ledger = async (sequence: number) => (await server.ledgers().ledger(sequence).call()) as unknown as Horizon.ServerApi.LedgerRecord
    const latest = await ledger(root.history_latest_ledger)
    expect(latest).toMatchObject({ sequence: root.history_latest_ledger, base_fee_in_stroops: 100 })
    expect(latest.successful_transaction_count).toBeGreaterThan(0)
    expect(latest.hash).toMatch(/^[0-9a-f]{64}$/)
    const genesis = await ledger(1)
    expect(genesis.successful_transaction_count).toBe(5) // the issuer's payments to the five genesis customers
    const supply = await ledgerSupply(sandbox)
    expect(latest.total_coins).toBe((Number(supply.xlm.totalCoins) / 1e7).toFixed(7))
  })

  it('refuses malformed submissions with a 4xx problem and applies nothing', async () => {
    const before = await sandbox.context.ledger.lastPosition(sandbox.context.db)
    const submit = async (body: string, type = 'application/x-www-form-urlencoded') =>
      readResponse(await fetch(`${horizon}/transactions`, { method: 'POST', headers: { 'content-type': type }, body }))
    const garbage = await submit('tx=AAAA')
    expect(garbage.status).toBe(400)
    expect(garbage.json).toMatchObject({
      type: 'https://stellar.org/horizon-errors/transaction_malformed',
      extras: { envelope_xdr: 'AAAA' },
    })
    for (const [body, type, status] of [
      ['', 'application/x-www-form-urlencoded', 400],
      ['tx=', 'application/x-www-form-urlencoded', 400],
      ['tx=a&tx=b', 'application/x-www-form-urlencoded', 400],
      ['tx=AAAA&memo=x', 'application/x-www-form-urlencoded', 400],
      ['{"tx":"AAAA"}', 'application/json', 415],
      [`tx=${'A'.repeat(300 * 1024)}`, 'application/x-www-form-urlencoded', 413],
    ] as const) {
      const response = await submit(body, type)
      expect(response.status, body.slice(0, 20)).toBe(status)
      expect(response.json, body.slice(0, 20)).toMatchObject({ status, statusCode: status })
    }
    expect(await sandbox.context.ledger.lastPosition(sandbox.context.db)).toBe(before)
  })
})
