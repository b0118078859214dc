// Realistic answers of the sandbox taken from a real run, for the answers resources.ts shares, and
// the ids and accounts every example names (an answer of one resource has its example beside it in
// src/api/contract/). The OpenAPI document carries them so that generic tools (Prism's mock, API
// explorers) answer values that satisfy the document's own patterns; test/e2e/openapi.test.ts
// validates each against its schema.

export const ISSUER = 'GAK7SAPAWX2QBNKZCOMNJV5XLK6AIS4BVMPWKXY2T3ISGRY7ACEMWXAF'

export const MERCHANT_ACCOUNT = 'GAPNTIU3K7WKCUQLFYRXTEPJ4C5P4IJLT5ZO6AEYC4BOHCJUT6BYIQOR'

export const CUSTOMER_ACCOUNT = 'GBKJF3X5WIB5QLY4275IJBSJ4FSB6R6OB2HMR3B2C4ZGS7AHTB5N5XRN'

export const USDC = `USDC:${ISSUER}`

export const MERCHANT_ID = '3037996a-b7a9-4783-a00d-ff37d85b27a9'

export const PAYMENT_ID = 'pt_01a20da0b7e7702ab145342b2598cad5'

export const BASE_URL = 'http://127.0.0.1:4010'

export const PAYMENT_TX = 'c4fe7504765be466214f2c2d48dd51e99e9fc85c106d3e12435f8c8cd99aa9f2'

export const SETTLEMENT_TX = '05611d90217e1fd3f06057f31d0e0b47cb68693f5e4849e9f85931e42981690c'

export const NETWORK_PASSPHRASE = 'Paybox Sandbox Network ; November 2026'

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

export const sandboxMerchantExample = {
  id: MERCHANT_ID,
  name: 'Acme Store',
  apiKey: 'pk_test_16c17a04322ec28c6bc1cfc72ac0cf0f',
  apiSecret: 'sk_test_f9a5e47cb05a73401aec3d7c2d8bd93ec38a8439cc6a62ca',
  settlement_mode: 'direct',
  account: MERCHANT_ACCOUNT,
  escrow_fee_bps: 0,
}

export const sandboxClockExample = { now: '2026-11-24T12:56:10.503Z', advancedSeconds: 0 }

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
