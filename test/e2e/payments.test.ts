import { StrKey } from '@stellar/stellar-sdk'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Payment } from '../../src/client/types.js'
import { ManualClock } from '../../sandbox/clock.js'
import { refusal } from '../../harness/refusal.js'
import { rawRequest, startTestSandbox, type TestSandbox } from '../../harness/sandbox.js'

const START = Date.UTC(2026, 10, 21, 12, 0, 0)
const MINUTE = 60_000

describe('payments API', () => {
  let sandbox: TestSandbox
  const clock = new ManualClock(START)

  beforeAll(async () => {
    sandbox = await startTestSandbox({ clock })
  })
  afterAll(() => sandbox.stop())

  describe('POST /payments', () => {
    let payment: Payment
    beforeAll(async () => {
      payment = await sandbox.direct.payments.create({
        amount: { value: 1250, currency: 'EUR' },
        description: 'Order #1042',
        redirectUrl: 'https://shop.example/thanks',
        webhookUrl: 'https://shop.example/hooks',
        locale: 'es',
        metadata: { orderId: '1042', nested: { ok: true } },
        partnerId: 'partner-7',
        storeId: 'berlin',
      })
    })

    it('returns every field of a new payment with its defaults', () => {
      expect(payment.id).toMatch(/^pt_[0-9a-f]{32}$/)
      expect(payment).toMatchObject({
        checkout_id: payment.id,
        mode: 'test',
        type: 'order',
        status: 'open',
        settlement_status: 'open',
        amount: { value: 1250, currency: 'EUR' },
        description: 'Order #1042',
        merchantName: 'Acme Store',
        redirectUrl: 'https://shop.example/thanks',
        cancelUrl: 'https://shop.example/thanks',
        webhookUrl: 'https://shop.example/hooks',
        locale: 'es',
        metadata: { orderId: '1042', nested: { ok: true } },
        partner_id: 'partner-7',
        storeId: 'berlin',
        amount_paid: 0,
        refunded: false,
        settlement_currency: 'USDC',
        settlement_amount: 13.5,
        settlement_fee: 0,
        createdAt: new Date(START).toISOString(),
        updatedAt: new Date(START).toISOString(),
        expiresAt: new Date(START + 30 * MINUTE).toISOString(),
        asset_id: `USDC:${sandbox.identity.usdcIssuer}`,
      })
      expect(payment.history).toEqual([{ time: START, status: 'success', description: 'Payment created' }])
      expect(payment).not.toHaveProperty('escrow_status')
      expect(payment).not.toHaveProperty('stellarTxId')
    })

    it('links to the hosted page with paymentId, auth_token and lang', () => {
      const hosted = new URL(payment.hostedUrl)
      expect(`${hosted.origin}${hosted.pathname}`).toBe(`${sandbox.url}/checkout/${payment.id}`)
      expect(hosted.searchParams.get('paymentId')).toBe(payment.id)
      expect(hosted.searchParams.get('auth_token')).toMatch(/^[0-9a-f]{32}$/)
      expect(hosted.searchParams.get('lang')).toBe('es')
    })

    it('gives a short URL that redirects to the hosted page', async () => {
      expect(payment.shortUrl).toMatch(new RegExp(`^${sandbox.url}/s/[\\w-]+$`))
      const response = await fetch(payment.shortUrl!, { redirect: 'manual' })
      expect(response.status).toBe(302)
      expect(response.headers.get('location')).toBe(payment.hostedUrl)
    })

    it('serves the hosted page for the right token only', async () => {
      const page = await fetch(payment.hostedUrl)
      expect(page.status).toBe(200)
      const html = await page.text()
      expect(html).toContain('Order #1042')
      expect(html).toContain('13.5 USDC')
      expect(html).toContain('Importe')
      const wrong = new URL(payment.hostedUrl)
      wrong.searchParams.set('auth_token', '0'.repeat(32))
      const refused = await fetch(wrong)
      expect(refused.status).toBe(404)
      expect(await refused.text()).not.toContain('Order #1042')
    })

    it('encodes a SEP-0007 wallet URI for the USDC amount, destination and memo', async () => {
      expect(payment.qrCode.startsWith('web+stellar:pay?')).toBe(true)
      const params = new URL(payment.qrCode).searchParams
      const { items: merchants } = await sandbox.admin.sandbox.merchants()
      const settlementAccount = merchants.find((m) => m.settlement_mode === 'direct')?.account
      expect(StrKey.isValidEd25519PublicKey(settlementAccount!)).toBe(true)
      expect(params.get('destination')).toBe(settlementAccount)
      expect(params.get('amount')).toBe('13.5')
      expect(params.get('asset_code')).toBe('USDC')
      expect(params.get('asset_issuer')).toBe(sandbox.identity.usdcIssuer)
      expect(params.get('memo_type')).toBe('MEMO_TEXT')
      // 28 bytes at most (MEMO_TEXT): "pb-", the creation time in ms, random hex.
      const memo = params.get('memo')!
      expect(memo).toMatch(/^pb-[0-9a-f]{25}$/)
      expect(Buffer.byteLength(memo)).toBeLessThanOrEqual(28)
      expect(Number.parseInt(memo.slice(3, 14), 16)).toBe(Date.parse(payment.createdAt))
      expect(params.get('msg')).toBe('Order #1042')
    })

    it('uses expiresInHours and the name given', async () => {
      const custom = await sandbox.direct.payments.create({
        amount: { value: 1500, currency: 'JPY' },
        description: 'Ramen',
        expiresInHours: 2,
        name: 'Noodle Bar',
      })
      expect(custom.expiresAt).toBe(new Date(START + 120 * MINUTE).toISOString())
      expect(custom.merchantName).toBe('Noodle Bar')
      expect(custom.settlement_amount).toBe(10.05)
      expect(custom).not.toHaveProperty('redirectUrl')
      expect(custom).not.toHaveProperty('cancelUrl')
    })

    it('adds the escrow order for escrow merchants', async () => {
      const escrowed = await sandbox.escrow.payments.create({
        amount: { value: 10_000, currency: 'USD' },
        description: 'Marketplace order',
      })
      expect(escrowed).toMatchObject({
        escrow_status: 'created',
        escrow_contract_address: sandbox.identity.escrowContract,
        escrow_platform_fee_bps: 250,
        merchantName: 'Bazaar Marketplace',
      })
      expect(escrowed.escrow_order_id).toMatch(/^eo_[0-9a-f]{24}$/)
      expect(StrKey.isValidContract(escrowed.escrow_contract_address!)).toBe(true)
      // Wallets pay the contract's custody account: classic payments cannot target a C… address.
      expect(new URL(escrowed.qrCode).searchParams.get('destination')).toBe(sandbox.identity.escrowCustody)

      const custom = await sandbox.escrow.payments.create({
        amount: { value: 100, currency: 'USD' },
        description: 'Custom fee',
        escrowPlatformFee: 0,
        escrowPayee: StrKey.encodeEd25519PublicKey(Buffer.alloc(32, 7)),
        escrowExpiresAt: new Date(START + 60 * MINUTE).toISOString(),
      })
      expect(custom.escrow_platform_fee_bps).toBe(0)
    })

    it('refuses escrow fields from a direct merchant, naming them', async () => {
      const error = await refusal(
        sandbox.direct.payments.create({ amount: { value: 100, currency: 'USD' }, description: 'x', escrowPlatformFee: 100 }),
      )
      expect(error.statusCode).toBe(400)
      expect(error.reason).toBe('Bad Request')
      expect(error.message).toContain('escrowPlatformFee')
      expect(error.message).toContain('escrow')
    })

    it.each([
      ['an escrow payee that is not an account', { escrowPayee: 'GNOTANACCOUNT' }, 'escrowPayee'],
      ['an escrow expiry in the past', { escrowExpiresAt: new Date(START - MINUTE).toISOString() }, 'escrowExpiresAt'],
      ['an escrow fee above 10000 bps', { escrowPlatformFee: 10_001 }, 'escrowPlatformFee'],
    ])('refuses %s', async (_name, fields, field) => {
      const error = await refusal(sandbox.escrow.payments.create({ amount: { value: 100, currency: 'USD' }, description: 'x', ...fields }))
      expect(error.statusCode).toBe(400)
      expect(error.message).toContain(field)
    })

    it.each([
      ['an unsupported currency', { amount: { value: 100, currency: 'XYZ' }, description: 'x' }, 'amount.currency'],
      ['a fractional amount', { amount: { value: 12.5, currency: 'USD' }, description: 'x' }, 'amount.value'],
      ['a zero amount', { amount: { value: 0, currency: 'USD' }, description: 'x' }, 'amount.value'],
      ['an empty description', { amount: { value: 1, currency: 'USD' }, description: '  ' }, 'description'],
      [
        'a non-http redirect URL',
        { amount: { value: 1, currency: 'USD' }, description: 'x', redirectUrl: 'javascript:alert(1)' },
        'redirectUrl',
      ],
      ['an unsupported locale', { amount: { value: 1, currency: 'USD' }, description: 'x', locale: 'fr' }, 'locale'],
      ['a negative expiry', { amount: { value: 1, currency: 'USD' }, description: 'x', expiresInHours: -1 }, 'expiresInHours'],
      ['metadata that is a list', { amount: { value: 1, currency: 'USD' }, description: 'x', metadata: [1] }, 'metadata'],
      ['an unknown field', { amount: { value: 1, currency: 'USD' }, description: 'x', colour: 'red' }, 'colour'],
    ])('refuses %s with 400 naming the field', async (_name, body, field) => {
      const before = (await sandbox.direct.payments.list()).meta.totalItems
      const error = await refusal(sandbox.direct.payments.create(body as never))
      expect(error.statusCode).toBe(400)
      expect(error.message).toContain(field)
      expect((await sandbox.direct.payments.list()).meta.totalItems).toBe(before)
    })
  })

  describe('GET /payments/{id}', () => {
    it('returns the payment as created', async () => {
      const created = await sandbox.direct.payments.create({ amount: { value: 999, currency: 'GBP' }, description: 'Tea' })
      expect(await sandbox.direct.payments.get(created.id)).toEqual(created)
    })

    it('answers 404 Not Found for an unknown id', async () => {
      const response = await rawRequest(sandbox.url, { method: 'GET', path: `/payments/pt_${'0'.repeat(32)}`, as: sandbox.merchants[0] })
      expect(response.status).toBe(404)
      expect(response.json).toMatchObject({ statusCode: 404, reason: 'Not Found' })
    })
  })
})

describe('GET /payments', () => {
  let sandbox: TestSandbox
  const clock = new ManualClock(START)
  const created: Payment[] = []

  beforeAll(async () => {
    sandbox = await startTestSandbox({ clock })
    for (let i = 0; i < 5; i++) {
      created.push(
        await sandbox.direct.payments.create({
          amount: { value: 100 + i, currency: 'USD' },
          description: `Payment ${i}`,
          storeId: i % 2 === 0 ? 'even' : 'odd',
        }),
      )
      clock.advance(MINUTE)
    }
  })
  afterAll(() => sandbox.stop())

  it('lists newest first with the page envelope and absolute links', async () => {
    const page = await sandbox.direct.payments.list({ limit: 2, page: 2 })
    expect(page.items.map((p) => p.description)).toEqual(['Payment 2', 'Payment 1'])
    expect(page.meta).toEqual({ totalItems: 5, itemCount: 2, itemsPerPage: 2, totalPages: 3, currentPage: 2 })
    expect(page.links).toEqual({
      first: `${sandbox.url}/payments?page=1&limit=2`,
      previous: `${sandbox.url}/payments?page=1&limit=2`,
      next: `${sandbox.url}/payments?page=3&limit=2`,
      last: `${sandbox.url}/payments?page=3&limit=2`,
    })
  })

  it('leaves previous and next empty where there is no such page', async () => {
    const page = await sandbox.direct.payments.list()
    expect(page.meta).toMatchObject({ totalItems: 5, itemCount: 5, itemsPerPage: 20, totalPages: 1, currentPage: 1 })
    expect(page.links).toMatchObject({ previous: '', next: '' })
  })

  it('filters by store, keeping the filter in the links', async () => {
    const page = await sandbox.direct.payments.list({ storeId: 'even', limit: 1 })
    expect(page.meta.totalItems).toBe(3)
    expect(page.items[0]?.description).toBe('Payment 4')
    expect(page.links?.next).toBe(`${sandbox.url}/payments?storeId=even&page=2&limit=1`)
  })

  it('filters by creation time, inclusive at both ends', async () => {
    const page = await sandbox.direct.payments.list({
      startDate: new Date(START + MINUTE).toISOString(),
      endDate: new Date(START + 3 * MINUTE).toISOString(),
    })
    expect(page.items.map((p) => p.description)).toEqual(['Payment 3', 'Payment 2', 'Payment 1'])
  })

  it('filters by status', async () => {
    expect((await sandbox.direct.payments.list({ status: 'open' })).meta.totalItems).toBe(5)
    expect((await sandbox.direct.payments.list({ status: 'paid' })).meta.totalItems).toBe(0)
  })

  it('returns an empty page past the end', async () => {
    const page = await sandbox.direct.payments.list({ page: 9 })
    expect(page.items).toEqual([])
    expect(page.meta).toMatchObject({ itemCount: 0, currentPage: 9, totalPages: 1 })
  })

  it.each([
    ['limit above 100', { limit: '101' }],
    ['limit 0', { limit: '0' }],
    ['page 0', { page: '0' }],
    ['a non-numeric page', { page: 'two' }],
    ['an unknown status', { status: 'lost' }],
    ['a date that is not ISO 8601', { startDate: '21/11/2026' }],
    ['an unknown parameter', { sort: 'asc' }],
  ])('refuses %s with 400', async (_name, query) => {
    const response = await rawRequest(sandbox.url, {
      method: 'GET',
      path: `/payments?${new URLSearchParams(query).toString()}`,
      as: sandbox.merchants[0],
    })
    expect(response.status).toBe(400)
    expect(response.json).toMatchObject({ statusCode: 400, reason: 'Bad Request' })
  })

  it('shows each merchant only its own payments', async () => {
    expect((await sandbox.escrow.payments.list()).meta.totalItems).toBe(0)
    const other = await rawRequest(sandbox.url, { method: 'GET', path: `/payments/${created[0]!.id}`, as: sandbox.merchants[1] })
    expect(other.status).toBe(404)
  })
})

describe('GET /currencies', () => {
  let sandbox: TestSandbox
  beforeAll(async () => {
    sandbox = await startTestSandbox()
  })
  afterAll(() => sandbox.stop())

  it('lists the pricing currencies with symbol and precision, without meta', async () => {
    const result = await sandbox.direct.currencies.list()
    expect(Object.keys(result)).toEqual(['items'])
    expect(result.items).toContainEqual({ resource: 'currencies', name: 'US Dollar', code: 'USD', symbol: '$', precision: 2 })
    expect(result.items).toContainEqual({ resource: 'currencies', name: 'Japanese Yen', code: 'JPY', symbol: '¥', precision: 0 })
    expect(result.items.map((c) => c.code)).toEqual(['USD', 'EUR', 'GBP', 'JPY', 'CHF', 'CAD', 'AUD', 'MXN', 'BRL'])
  })
})
