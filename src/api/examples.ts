// Realistic answers of the sandbox, one per resource, taken from a real run: the OpenAPI document
// carries them so that generic tools (Prism's mock, API explorers) answer values that satisfy
// the document's own patterns. test/e2e/openapi.test.ts validates each against its schema.

const ISSUER = 'GAK7SAPAWX2QBNKZCOMNJV5XLK6AIS4BVMPWKXY2T3ISGRY7ACEMWXAF'
const MERCHANT_ACCOUNT = 'GAPNTIU3K7WKCUQLFYRXTEPJ4C5P4IJLT5ZO6AEYC4BOHCJUT6BYIQOR'
const CUSTOMER_ACCOUNT = 'GBKJF3X5WIB5QLY4275IJBSJ4FSB6R6OB2HMR3B2C4ZGS7AHTB5N5XRN'
const USDC = `USDC:${ISSUER}`
const MERCHANT_ID = '3037996a-b7a9-4783-a00d-ff37d85b27a9'
const PAYMENT_ID = 'pt_01a20da0b7e7702ab145342b2598cad5'
const BASE_URL = 'http://127.0.0.1:4010'
const PAYMENT_TX = 'c4fe7504765be466214f2c2d48dd51e99e9fc85c106d3e12435f8c8cd99aa9f2'
const SETTLEMENT_TX = '05611d90217e1fd3f06057f31d0e0b47cb68693f5e4849e9f85931e42981690c'
const NETWORK_PASSPHRASE = 'Paybox Sandbox Network ; November 2026'

export const errorExample = {
  statusCode: 404,
  reason: 'Not Found',
  message: `No payment ${PAYMENT_ID}`,
  requestId: 'req_4efa5699-6de3-4ac3-b2b3-a901861fb2e8',
}

const history = [
  { time: 1795524966375, status: 'success', description: 'Payment created' },
  { time: 1795524966405, status: 'paid', description: 'Payment received (25 USDC)' },
  {
    time: 1795524966405,
    status: 'settlement_processing',
    description: 'Settlement submitted: 24.75 USDC to the merchant, fee 0.25 USDC (Starter, 1%)',
  },
  { time: 1795524966416, status: 'settled', description: 'Settled to the merchant account in ledger 2' },
]

export const paymentExample = {
  id: PAYMENT_ID,
  createdAt: '2026-11-24T12:56:06.375Z',
  updatedAt: '2026-11-24T12:56:06.416Z',
  expiresAt: '2026-11-24T13:26:06.375Z',
  mode: 'test',
  amount: { value: 2500, currency: 'USD' },
  description: 'Order #1042',
  status: 'paid',
  settlement_status: 'paid',
  checkout_id: PAYMENT_ID,
  webhookUrl: 'https://shop.example/webhooks/paybox',
  hostedUrl: `${BASE_URL}/checkout/${PAYMENT_ID}?paymentId=${PAYMENT_ID}&auth_token=bb407368a6a9fa548fbe3f1c22468481&lang=en`,
  shortUrl: `${BASE_URL}/s/rhPrHA0-0vk`,
  qrCode:
    `web+stellar:pay?destination=${MERCHANT_ACCOUNT}&amount=25&asset_code=USDC&asset_issuer=${ISSUER}` +
    '&memo=pb-1a20da0b7e7fc84a34d187e26&memo_type=MEMO_TEXT&network_passphrase=Paybox%20Sandbox%20Network%20%3B%20November%202026&msg=Order%20%231042',
  merchantName: 'Acme Store',
  locale: 'en',
  metadata: { orderId: '1042' },
  stellarTxId: PAYMENT_TX,
  settlement_stellarTxId: SETTLEMENT_TX,
  settlement_currency: 'USDC',
  settlement_amount: 24.75,
  settlement_fee: 0.25,
  amount_paid: 2500,
  history,
  sender_account: CUSTOMER_ACCOUNT,
  asset_id: USDC,
  refunded: false,
  type: 'order',
}

export const refundExample = {
  refund_id: 'rf_01a20da0b89b7193937ef11dd93f464e',
  amount: { asset_id: USDC, value: 5 },
  status: 'refunded',
  description: 'Damaged item',
  settlement_Id: 'f3443c8b4b005972cef4726114847e0296ba2e7d369795cf4e80005fb963c101',
  metadata: {},
  paymentId: PAYMENT_ID,
  createdAt: '2026-11-24T12:56:06.555Z',
}

export const customerExample = {
  id: '38121c4f-af7d-4267-941e-c3f9c98d9b29',
  customer_type: 'business',
  name: 'Ada Lovelace',
  company_name: 'Analytical Engines Ltd',
  email: 'ada@example.com',
  vat_number: 'GB123456789',
  address: { line1: '12 St James Square', postal_code: 'SW1Y 4JH', city: 'London', country: 'GB' },
}

export const invoiceExample = {
  id: '62133702-cdac-425e-9b26-5425b1aeef2d',
  invoice_number: 'INV-0001',
  status: 'sent',
  currency: 'EUR',
  line_items: [{ description: 'Consulting', quantity: 2, unit_price: 15000 }],
  subtotal: 30000,
  tax_percentage: 21,
  tax_total: 6300,
  total: 36300,
  issued_at: '2026-11-24T12:56:06.589Z',
  due_at: null,
  payment_id: 'pt_01a20da0b8c0739691121515f6797a64',
  notes: '',
  customer: customerExample,
  createdAt: '2026-11-24T12:56:06.589Z',
  updatedAt: '2026-11-24T12:56:06.589Z',
}

export const invoiceSettingsExample = { invoice_prefix: 'INV-', next_number: 2, preview: 'INV-0002' }

export const feeTierExample = {
  tierId: 'tier_starter',
  tierName: 'Starter',
  ratePercent: 1,
  volume: 25,
  windowDays: 30,
  nextTier: { name: 'Growth', ratePercent: 0.8, minVolume: 10000, amountToNext: 9975 },
}

export const currencyExample = { resource: 'currencies', name: 'US Dollar', code: 'USD', symbol: '$', precision: 2 }

export const balanceExample = { balance: '19.8000000' }

export const accountBalancesExample = {
  account: MERCHANT_ACCOUNT,
  items: [
    { asset_id: USDC, asset_code: 'USDC', balance: '19.8000000' },
    { asset_id: 'native', asset_code: 'XLM', balance: '9999.9999700' },
  ],
}

export const merchantExample = {
  id: MERCHANT_ID,
  name: 'Acme Store',
  settlement_mode: 'direct',
  account: MERCHANT_ACCOUNT,
  webhooks_paused: false,
}

export const sandboxMerchantExample = {
  id: MERCHANT_ID,
  name: 'Acme Store',
  apiKey: 'pk_test_16c17a04322ec28c6bc1cfc72ac0cf0f',
  apiSecret: 'sk_test_f9a5e47cb05a73401aec3d7c2d8bd93ec38a8439cc6a62ca',
  settlement_mode: 'direct',
  account: MERCHANT_ACCOUNT,
  escrow_fee_bps: 0,
}

export const webhookDeliveryExample = {
  id: '67866d4b-6f4e-54a4-8c0d-b595e435f5ec',
  merchant_id: MERCHANT_ID,
  checkout_id: PAYMENT_ID,
  event_type: 'transaction_created',
  url: 'https://shop.example/webhooks/paybox',
  status: 'success',
  http_status: 200,
  error_message: null,
  attempt_count: 1,
  duration_ms: 9,
  resend_of: null,
  last_attempt_at: '2026-11-24T12:56:10.373Z',
  created_at: '2026-11-24T12:56:10.167Z',
  updated_at: '2026-11-24T12:56:10.373Z',
  request_payload: `{\n  "data": {\n    "type": "transaction_created",\n    "id": "${PAYMENT_ID}",\n    "status": "open"\n  }\n}`,
  response_body: 'ok',
}

export const webhooksPausedStateExample = { merchant_id: MERCHANT_ID, webhooks_paused: true }
export const paymentWebhooksStateExample = { checkout_id: PAYMENT_ID, event_coming: true, pending_deliveries: 1, quiet: false }

export const paymentEventExample = {
  sequence: 17,
  event_type: 'transaction_updated',
  checkout_id: PAYMENT_ID,
  payload: `{\n  "data": {\n    "type": "transaction_updated",\n    "id": "${PAYMENT_ID}",\n    "status": "paid"\n  }\n}`,
  created_at: '2026-11-24T12:56:06.405Z',
}

export const requestLogEntryExample = {
  requestId: 'req_25ac8f3e-e6cc-4c0b-a488-2c9f63ec03e5',
  time: '2026-11-24T12:56:10.459Z',
  method: 'POST',
  path: '/payments',
  status: 200,
  durationMs: 1.2,
  merchantId: MERCHANT_ID,
  idempotencyKey: 'order-1042',
}

export const crossChainQuoteExample = {
  quoteId: 'qt_01a20da0c7e0708ca22cf14251b9321c',
  paymentId: 'pt_01a20da0c7dc7492a24c04f615f2d924',
  originChain: 'ethereum',
  originToken: 'USDC',
  depositAddress: '0x49e38e6598666ce5455f004df01ece2b1a4ae1cd',
  amountIn: '10.03',
  amountOut: '10.0000000',
  bridgeFeeBps: 30,
  refundAddress: '0x52908400098527886E0F7030069857D2E4169EE7',
  expiresAt: '2026-11-24T13:11:10.464Z',
  status: 'SUCCESS',
  amountDeposited: '10.03',
  amountRefunded: '0',
  usdcDelivered: '10.0000000',
  supersededBy: null,
  depositTxId: '3309671d1d4b8ea29cecc1dbc8ce0576b01022dccacf879db8a1c582ce6188a4',
  transactions: {
    origin: [
      {
        type: 'deposit',
        hash: '0x622c01b87241be1800b53bc4c20b7ec45de8923a7d4e4e339daa52467f5babb1',
        amount: '10.03',
        at: '2026-11-24T12:56:10.467Z',
      },
    ],
    stellar: [{ type: 'delivery', hash: '3309671d1d4b8ea29cecc1dbc8ce0576b01022dccacf879db8a1c582ce6188a4' }],
  },
  history: [
    { status: 'PENDING_DEPOSIT', at: '2026-11-24T12:56:10.464Z' },
    { status: 'KNOWN_DEPOSIT_TX', at: '2026-11-24T12:56:10.467Z' },
    { status: 'PROCESSING', at: '2026-11-24T12:56:10.467Z' },
    { status: 'SUCCESS', at: '2026-11-24T12:56:10.467Z' },
  ],
}

export const originChainsExample = {
  bridgeFeeBps: 30,
  items: [
    {
      id: 'ethereum',
      name: 'Ethereum',
      addressFormat: 'evm',
      tokens: [
        { symbol: 'USDC', decimals: 6, usdRate: '1' },
        { symbol: 'ETH', decimals: 18, usdRate: '3000' },
      ],
    },
    { id: 'solana', name: 'Solana', addressFormat: 'solana', tokens: [{ symbol: 'SOL', decimals: 9, usdRate: '150' }] },
  ],
}

const CUSTODY = 'GD4C6EUCTBPO7QG3S6NXMUITN76ZC3UWKT6NJ5AY24C2NSV7BAHEAKVJ'
export const escrowOrderExample = {
  paymentId: 'pt_01a20da0c7c472a1a2cd10c4bb5a0ed7',
  escrow_order_id: 'eo_076081f700846b72e5ed0b7b',
  escrow_status: 'funded',
  escrow_contract_address: 'CBPKZZVVR3MYYVGPI6XKNJSHAQEFMOJT7TK5F5NSPMOFLRGMGEQN4UBX',
  custody_account: CUSTODY,
  contract_balance: '100.0000000',
  held: '100.0000000',
  platform_fee_account: 'GBFE2N6I3LMFG5YPTPRMNHTLVE2LZ6GOWIGVCUBRTUBEUKIRTJMWVNGY',
  payee: 'GBMEN5ZNWYVQAWWQPJ4PCJ5CZB7XYQ5JM2Y2A5LFE26YXCZRHCC7RBB7',
  escrow_platform_fee_bps: 250,
  escrow_expires_at: '2026-12-01T12:56:10.436Z',
  settlement_status: 'open',
  release: null,
  transactions: [
    {
      hash: 'e69bbea5fcdd926c5a5fc8a57b0c28b08ddf99970dfc8f9ae6d081a0856631f5',
      ledger: 4,
      appliedAt: '2026-11-24T12:56:10.447Z',
      successful: true,
      operations: [{ from: CUSTOMER_ACCOUNT, to: CUSTODY, asset: 'USDC', amount: '100.0000000' }],
    },
  ],
}

export const ledgerAccountExample = {
  publicKey: MERCHANT_ACCOUNT,
  role: 'merchant',
  label: 'Acme Store settlement',
  sequence: '4294967299',
  balances: { USDC: '29.7000000', XLM: '9999.9999600' },
  createdAt: '2026-11-24T12:56:09.954Z',
}

export const ledgerTransactionExample = {
  hash: PAYMENT_TX,
  position: 5,
  ledger: 2,
  sourceAccount: CUSTOMER_ACCOUNT,
  sourceSequence: '4294967297',
  feeCharged: '100',
  successful: true,
  operationResults: null,
  memoType: 'text',
  memo: 'pb-1a20da0b7e7fc84a34d187e26',
  operations: [{ index: 0, type: 'payment', from: CUSTOMER_ACCOUNT, to: MERCHANT_ACCOUNT, asset: 'USDC', amount: '25.0000000' }],
  signatures: 1,
  envelopeXdr:
    'AAAAAgAAAAAV+QHgtfUAtVkTmNTXt1q8BEuBqx9lXxqe0SNHHwCIywAAAGQAAAABAAAAAQAAAAEAAAAAAAAAAAAAAABrBYqVAAAAAAAAAAEAAAAAAAAAAQAAAAD0BcAJSiKDlgqouO0xA+fX5A2PM/i4QIJk4rDO29loqQAAAAFVU0RDAAAAABX5AeC19QC1WROY1Ne3WrwES4GrH2VfGp7RI0cfAIjLAAAJGE5yoAAAAAAAAAAAAR8AiMsAAABAgwv5YMTzJuoHQp51e21IDR7mPjwKHbO3NY/z0jkM6AH6AvxQiYtT/pxrw5mF1bfy6owYOOAbcKMgaTBTMUUNCg==',
  appliedAt: '2026-11-24T12:56:06.405Z',
  closedAt: '2026-11-24T12:56:06.410Z',
  payment: PAYMENT_ID,
  unmatched: false,
  horizonUrl: `${BASE_URL}/horizon/transactions/${PAYMENT_TX}`,
}

export const sandboxClockExample = { now: '2026-11-24T12:56:10.503Z', advancedSeconds: 0 }

export const dashboardSignInLinkExample = {
  url: 'http://127.0.0.1:4010/dashboard/sign-in?token=q2Xv0m3Jc9bQ6l4tW1yZ8rN5aE7uK0sD2fH4gJ6kL8o',
  expiresAt: '2026-11-24T13:01:10.503Z',
}

const healthChecksExample = {
  database: { status: 'ok' },
  ledger: { status: 'ok', detail: 'ledger 7 open' },
  webhooks: { status: 'ok', detail: 'no deliveries waiting' },
}
export const healthExample = { status: 'ok', checks: healthChecksExample, sandbox: { shared: false, replicated: false } }
export const healthFailingChecksExample = { ...healthChecksExample, webhooks: { status: 'failing', detail: 'the dispatcher stopped' } }

export const walletExample = {
  publicKey: 'GBOU5JQZOIDHXFOKZO2AUNZHUSH3OKZAQCEIU3KWEXSGPRVVXC2DCV4R',
  secret: 'SAH56HJGV2LXVASHAJPQ3ILB7NEIV5YEWX6YSGOAWPLE2WNHARTWM6WO',
  balances: { USDC: '100.0000000', XLM: '10000.0000000' },
  fundingTxId: 'c3fd754d6e4214c8808afc72b08d2400f06fe305d99f3b5afd6e94c4db033c76',
  usdcTrustline: { limit: '922337203685.4775807' },
  horizonUrl: `${BASE_URL}/horizon`,
  networkPassphrase: NETWORK_PASSPHRASE,
}

export const snapshotExample = { name: 'before-refunds', size: 221184, createdAt: '2026-11-24T12:58:00.000Z' }

export const resetStateExample = {
  merchants: [
    {
      id: MERCHANT_ID,
      name: 'Acme Store',
      apiKey: sandboxMerchantExample.apiKey,
      apiSecret: sandboxMerchantExample.apiSecret,
      settlement_mode: 'direct',
    },
  ],
  clock: { now: '2026-11-24T12:58:01.000Z' },
}

export const advancedClockProcessedExample = { expiredPayments: 2, overdueInvoices: 1, failedEscrows: 0, closedQuotes: 0 }

export const webhookBodyExample = {
  data: {
    type: 'transaction_updated',
    id: PAYMENT_ID,
    status: 'paid',
    settlement_status: 'paid',
    amount: { value: 2500, currency: 'USD' },
    settlement_amount: 24.75,
    settlement_currency: 'USDC',
    settlement_fee: 0.25,
    amount_paid: 2500,
    amount_received: 25,
    amount_remaining: 0,
    history,
    metadata: { orderId: '1042' },
  },
}

export const openApiDocumentExample = {
  openapi: '3.1.0',
  info: { title: 'paybox sandbox: merchant payments and invoicing API', version: '1.0' },
  paths: {},
}
