// The merchant's account: its balances, who it is, its fee tier, the currencies it prices in (spec 4.12–4.14).
import { z } from 'zod'
import * as examples from '../examples.js'
import { SETTLEMENT_MODES } from '../enumerations.js'
import { accountAddress, decimalText, itemsOf } from '../resources.js'
import { endpoint } from './entry.js'

const feeTierExample = {
  tierId: 'tier_starter',
  tierName: 'Starter',
  ratePercent: 1,
  volume: 25,
  windowDays: 30,
  nextTier: { name: 'Growth', ratePercent: 0.8, minVolume: 10000, amountToNext: 9975 },
}

export const feeTier = z
  .object({
    tierId: z.string(),
    tierName: z.string(),
    ratePercent: z.number(),
    volume: z.number().describe('Settled volume over the window, USD'),
    windowDays: z.number().int(),
    nextTier: z.object({ name: z.string(), ratePercent: z.number(), minVolume: z.number(), amountToNext: z.number() }).nullable(),
  })
  .describe("The merchant's fee tier (spec 2.5)")
  .meta({ example: feeTierExample })

const currencyExample = { resource: 'currencies', name: 'US Dollar', code: 'USD', symbol: '$', precision: 2 }

export const currency = z
  .object({ resource: z.literal('currencies'), name: z.string(), code: z.string(), symbol: z.string(), precision: z.number().int() })
  .describe('A pricing currency (spec 2.6)')
  .meta({ example: currencyExample })

export const currencyList = itemsOf(currency)

const balanceExample = { balance: '19.8000000' }

export const balance = z.object({ balance: decimalText }).describe("One asset's balance (spec 2.7)").meta({ example: balanceExample })

const accountBalancesExample = {
  account: examples.MERCHANT_ACCOUNT,
  items: [
    { asset_id: examples.USDC, asset_code: 'USDC', balance: '19.8000000' },
    { asset_id: 'native', asset_code: 'XLM', balance: '9999.9999700' },
  ],
}

export const accountBalances = z
  .object({
    account: accountAddress,
    items: z.array(z.object({ asset_id: z.string(), asset_code: z.string(), balance: decimalText })),
  })
  .meta({ example: accountBalancesExample })

const merchantExample = {
  id: examples.MERCHANT_ID,
  name: 'Acme Store',
  settlement_mode: 'direct',
  account: examples.MERCHANT_ACCOUNT,
  webhooks_paused: false,
}

export const authenticatedMerchant = z
  .object({
    id: z.string(),
    name: z.string(),
    settlement_mode: z.enum(SETTLEMENT_MODES),
    account: accountAddress,
    webhooks_paused: z.boolean(),
  })
  .describe('The authenticated merchant')
  .meta({ example: merchantExample })

export const balances = {
  /** Every asset of the merchant's settlement account. */
  list: endpoint({
    operationId: 'listBalances',
    method: 'get',
    path: '/accounts/balances',
    security: 'digest',
    authReason: 'Unauthorized',
    summary: "Balances of the merchant's settlement account",
    tag: 'Account',
    errors: [],
    response: accountBalances,
  }),
  /** One asset: `USDC`, `USDC:<issuer>`, `native` or `XLM`. */
  get: endpoint({
    operationId: 'getBalance',
    method: 'get',
    path: '/accounts/balances/:assetId',
    security: 'digest',
    authReason: 'Unauthorized',
    summary: 'Balance of one asset',
    tag: 'Account',
    description: 'A 400 with reason "Asset is not supported" for anything but USDC, USDC:<issuer>, native and XLM.',
    pathParams: { assetId: 'USDC, USDC:<issuer>, native or XLM' },
    errors: [],
    response: balance,
  }),
}

export const merchant = {
  feeTier: endpoint({
    operationId: 'getFeeTier',
    method: 'get',
    path: '/merchant/fee-tier',
    security: 'digest',
    authReason: 'Signature verification failed',
    summary: "The merchant's fee tier",
    tag: 'Account',
    errors: [],
    response: feeTier,
  }),
  /** Who the API key belongs to: id, name, settlement mode and account, whether webhooks are paused. */
  get: endpoint({
    operationId: 'getMerchant',
    method: 'get',
    path: '/merchant',
    security: 'digest',
    authReason: 'Signature verification failed',
    summary: 'Who the API key belongs to',
    tag: 'Account',
    errors: [],
    response: authenticatedMerchant,
  }),
}

export const currencies = {
  list: endpoint({
    operationId: 'listCurrencies',
    method: 'get',
    path: '/currencies',
    security: 'digest',
    authReason: 'Signature verification failed',
    summary: 'Supported pricing currencies',
    tag: 'Account',
    errors: [],
    response: currencyList,
  }),
}

/** The answers declared here, by the component name the OpenAPI document gives them. */
export const accountAnswers = {
  FeeTier: feeTier,
  Currency: currency,
  CurrencyList: currencyList,
  Balance: balance,
  AccountBalances: accountBalances,
  Merchant: authenticatedMerchant,
}
