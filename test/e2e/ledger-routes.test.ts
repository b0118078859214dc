// The sandbox's read-only views of its ledger (admin token): accounts, transactions, and one
// transaction decoded, all agreeing with the signed envelopes stored.
import { Keypair, TransactionBuilder } from '@stellar/stellar-sdk'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Payment } from '../../src/client/types.js'
import { startTestSandbox, type TestSandbox } from '../../harness/sandbox.js'
import { refusal } from '../../harness/refusal.js'

interface AccountView {
  publicKey: string
  role: string
  label: string
  sequence: string
  balances: { USDC: string; XLM: string }
}
interface TransactionView {
  hash: string
  position: number
  ledger: number
  sourceAccount: string
  memoType: string
  memo: string | null
  operations: Array<{ index: number; type: string; from: string; to: string; asset: string; amount: string }>
  signatures: number
  envelopeXdr: string
  closedAt: string | null
}

describe('ledger views', () => {
  let sandbox: TestSandbox
  let paid: Payment
  const admin = <T>(path: string, query?: Record<string, string | number>) =>
    sandbox.admin.request<T>('GET', path, { auth: 'admin', query })

  beforeAll(async () => {
    sandbox = await startTestSandbox({ dueWorkIntervalMs: 0 })
    const payment = await sandbox.direct.payments.create({ amount: { value: 990, currency: 'USD' }, description: 'Viewed' })
    paid = await sandbox.direct.request<Payment>('POST', `/sandbox/payments/${payment.id}/pay`, { body: {} })
  })
  afterAll(() => sandbox.stop())

  it('lists every account with its role and balances, filtered by role', async () => {
    const { items } = await admin<{ items: AccountView[] }>('/sandbox/ledger/accounts')
    expect(new Set(items.map((a) => a.role))).toEqual(new Set(['issuer', 'merchant', 'escrow', 'platform_fee', 'customer']))
    const issuer = items.find((a) => a.role === 'issuer')!
    expect(issuer.publicKey).toBe(sandbox.identity.usdcIssuer)
    const customers = await admin<{ items: AccountView[] }>('/sandbox/ledger/accounts', { role: 'customer' })
    expect(customers.items).toHaveLength(5)
    const payer = customers.items.find((a) => a.publicKey === paid.sender_account)!
    expect(payer.balances.USDC).toBe('999990.1000000')
    expect(JSON.stringify(items)).not.toMatch(/"S[A-Z2-7]{55}"/) // no secret seeds
  })

  it("lists an account's transactions and decodes one exactly as its signed envelope says", async () => {
    const { items } = await admin<{ items: TransactionView[] }>('/sandbox/ledger/transactions', {
      account: paid.sender_account!,
      order: 'desc',
      limit: 1,
    })
    expect(items).toHaveLength(1)
    const listed = items[0]!
    expect(listed.hash).toBe(paid.stellarTxId)

    const tx = await admin<TransactionView>(`/sandbox/ledger/transactions/${paid.stellarTxId}`)
    expect(tx).toEqual(listed)
    const envelope = TransactionBuilder.fromXDR(tx.envelopeXdr, sandbox.identity.networkPassphrase)
    expect(envelope.hash().toString('hex')).toBe(tx.hash)
    expect(Keypair.fromPublicKey(tx.sourceAccount).verify(envelope.hash(), envelope.signatures[0]!.signature())).toBe(true)
    expect(tx).toMatchObject({ memoType: 'text', memo: new URL(paid.qrCode).searchParams.get('memo'), signatures: 1 })
    expect(tx.operations).toEqual([
      {
        index: 0,
        type: 'payment',
        from: paid.sender_account,
        to: new URL(paid.qrCode).searchParams.get('destination'),
        asset: 'USDC',
        amount: '9.9000000',
      },
    ])
    expect(tx.closedAt).not.toBeNull()
  })

  it('pages transactions by position', async () => {
    const first = await admin<{ items: TransactionView[] }>('/sandbox/ledger/transactions', { limit: 2 })
    const next = await admin<{ items: TransactionView[] }>('/sandbox/ledger/transactions', { limit: 2, after: first.items[1]!.position })
    expect(next.items[0]!.position).toBe(first.items[1]!.position + 1)
  })

  it('needs the admin token and refuses bad queries and unknown hashes', async () => {
    expect((await fetch(`${sandbox.url}/sandbox/ledger/accounts`)).status).toBe(401)
    expect((await refusal(sandbox.direct.request('GET', '/sandbox/ledger/transactions'))).statusCode).toBe(401)
    expect((await refusal(admin('/sandbox/ledger/accounts', { role: 'banker' }))).statusCode).toBe(400)
    expect((await refusal(admin('/sandbox/ledger/transactions', { account: 'GNOTANACCOUNT' }))).message).toContain('account')
    expect((await refusal(admin('/sandbox/ledger/transactions', { limit: 201 }))).statusCode).toBe(400)
    expect((await refusal(admin(`/sandbox/ledger/transactions/${'0'.repeat(64)}`))).statusCode).toBe(404)
    expect((await refusal(admin('/sandbox/ledger/transactions/xyz'))).statusCode).toBe(404)
  })
})
