// The merchant's account: its balances, who it is, its fee tier, the currencies it prices in (spec 4.12–4.14).
import { RESPONSE_SCHEMAS } from '../resources.js'
import { endpoint } from './entry.js'

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
    response: RESPONSE_SCHEMAS.AccountBalances,
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
    response: RESPONSE_SCHEMAS.Balance,
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
    response: RESPONSE_SCHEMAS.FeeTier,
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
    response: RESPONSE_SCHEMAS.Merchant,
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
    response: RESPONSE_SCHEMAS.CurrencyList,
  }),
}
