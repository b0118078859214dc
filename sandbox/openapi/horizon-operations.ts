// The Horizon-compatible API under /horizon, as operations of the document. Its records are
// Horizon's own (https://developers.stellar.org/docs/data/apis/horizon/api-reference) and are
// described loosely here; its errors are Horizon problem documents.
import { z } from 'zod'
import { HORIZON_PATH, submitForm } from '../horizon/horizon-routes.js'
import { effectsPageQuery } from '../horizon/horizon-effects.js'
import { pageQuery, recordQuery } from '../horizon/horizon-paging.js'
import type { Operation } from './operation.js'

export const HORIZON_REQUEST_SCHEMAS: Record<string, z.ZodType> = { HorizonSubmitForm: submitForm }

const links = z.looseObject({}).describe('HAL links')

const ACCOUNT_EXAMPLE = 'GBKJF3X5WIB5QLY4275IJBSJ4FSB6R6OB2HMR3B2C4ZGS7AHTB5N5XRN'
/** A Horizon account record, abridged, as the sandbox serves it. */
const recordExample = {
  _links: { self: { href: `http://127.0.0.1:4010${HORIZON_PATH}/accounts/${ACCOUNT_EXAMPLE}` } },
  id: ACCOUNT_EXAMPLE,
  account_id: ACCOUNT_EXAMPLE,
  sequence: '4294967297',
  paging_token: ACCOUNT_EXAMPLE,
  balances: [{ balance: '75.0000000', asset_type: 'native' }],
}

export const HORIZON_RESPONSE_SCHEMAS: Record<string, z.ZodType> = {
  HorizonRecord: z
    .looseObject({ _links: links.optional() })
    .describe('A Horizon record (account, transaction, operation, ledger, root, fee stats)')
    .meta({ example: recordExample }),
  HorizonPage: z
    .looseObject({ _links: links, _embedded: z.object({ records: z.array(z.looseObject({ paging_token: z.string().optional() })) }) })
    .describe('A Horizon page: _embedded.records and self/next/prev links')
    .meta({
      example: {
        _links: { self: { href: `http://127.0.0.1:4010${HORIZON_PATH}/accounts?cursor=&limit=10&order=asc` } },
        _embedded: { records: [recordExample] },
      },
    }),
  HorizonProblem: z
    .object({
      type: z.string(),
      title: z.string(),
      status: z.number().int(),
      detail: z.string(),
      extras: z.record(z.string(), z.unknown()).optional(),
      statusCode: z.number().int(),
      reason: z.string(),
      message: z.string(),
    })
    .describe("A Horizon problem document, carrying the sandbox's {statusCode, reason, message} too")
    .meta({
      example: {
        type: 'https://stellar.org/horizon-errors/not_found',
        title: 'Resource Missing',
        status: 404,
        detail: 'The resource at the url requested was not found.',
        statusCode: 404,
        reason: 'Not Found',
        message: `No account ${ACCOUNT_EXAMPLE}`,
      },
    }),
}

const HORIZON = { tag: 'Horizon', security: 'none', beforeBodyParser: true, errorSchema: 'HorizonProblem' } as const
const ACCOUNT = { accountId: 'Stellar account address (G…)' }
const TX = { hash: 'Transaction hash (64 hex digits)' }
const LEDGER = { sequence: 'Ledger sequence' }
const record = (description = 'OK') => [{ status: 200, description, json: 'HorizonRecord' }]
/** A page, or with Accept: text/event-stream a stream of records from the cursor on. */
const pageOrStream = [
  {
    status: 200,
    description: 'A page of records; with `Accept: text/event-stream`, a stream of them',
    json: 'HorizonPage',
    eventStream: 'HorizonRecord',
  },
]
const page = [{ status: 200, description: 'A page of records', json: 'HorizonPage' }]

const path = (suffix: string) => `${HORIZON_PATH}${suffix}`

export const HORIZON_OPERATIONS = [
  {
    method: 'get',
    path: path(''),
    operationId: 'horizonRoot',
    summary: 'Horizon root: network passphrase and latest ledger',
    ...HORIZON,
    query: recordQuery,
    success: record(),
    errors: [],
  },
  {
    method: 'get',
    path: path('/fee_stats'),
    operationId: 'horizonFeeStats',
    summary: 'Fee statistics',
    ...HORIZON,
    query: recordQuery,
    success: record(),
    errors: [],
  },
  {
    method: 'get',
    path: path('/accounts/:accountId'),
    operationId: 'horizonGetAccount',
    summary: 'An account: sequence, balances, signers',
    ...HORIZON,
    pathParams: ACCOUNT,
    query: recordQuery,
    success: record(),
    errors: [404],
  },
  {
    method: 'get',
    path: path('/accounts/:accountId/data/:key'),
    operationId: 'horizonGetAccountData',
    summary: 'A data entry (sandbox accounts hold none: always 404)',
    ...HORIZON,
    pathParams: { ...ACCOUNT, key: 'Data entry name' },
    query: recordQuery,
    success: [],
    errors: [404],
  },
  {
    method: 'get',
    path: path('/accounts/:accountId/transactions'),
    operationId: 'horizonAccountTransactions',
    summary: "An account's transactions",
    ...HORIZON,
    pathParams: ACCOUNT,
    query: pageQuery,
    success: pageOrStream,
    errors: [404],
  },
  {
    method: 'get',
    path: path('/accounts/:accountId/payments'),
    operationId: 'horizonAccountPayments',
    summary: "An account's payments",
    ...HORIZON,
    pathParams: ACCOUNT,
    query: pageQuery,
    success: pageOrStream,
    errors: [404],
  },
  {
    method: 'get',
    path: path('/accounts/:accountId/operations'),
    operationId: 'horizonAccountOperations',
    summary: "An account's operations (all payments)",
    ...HORIZON,
    pathParams: ACCOUNT,
    query: pageQuery,
    success: pageOrStream,
    errors: [404],
  },
  {
    method: 'get',
    path: path('/payments'),
    operationId: 'horizonPayments',
    summary: 'Every payment',
    ...HORIZON,
    query: pageQuery,
    success: pageOrStream,
    errors: [],
  },
  {
    method: 'get',
    path: path('/operations'),
    operationId: 'horizonOperations',
    summary: 'Every operation (all payments)',
    ...HORIZON,
    query: pageQuery,
    success: pageOrStream,
    errors: [],
  },
  {
    method: 'get',
    path: path('/transactions'),
    operationId: 'horizonTransactions',
    summary: 'Every transaction',
    ...HORIZON,
    query: pageQuery,
    success: pageOrStream,
    errors: [],
  },
  {
    method: 'post',
    path: path('/transactions'),
    operationId: 'horizonSubmitTransaction',
    summary: 'Submit a signed transaction envelope',
    ...HORIZON,
    description:
      'Applied through the same memo matching as every other payment. A refused transaction is a 400 problem with result codes in extras.',
    formBody: 'HorizonSubmitForm',
    success: record('The applied transaction'),
    errors: [400, 413, 415],
  },
  {
    method: 'get',
    path: path('/transactions/:hash'),
    operationId: 'horizonGetTransaction',
    summary: 'One transaction',
    ...HORIZON,
    pathParams: TX,
    query: recordQuery,
    success: record(),
    errors: [404],
  },
  {
    method: 'get',
    path: path('/transactions/:hash/payments'),
    operationId: 'horizonTransactionPayments',
    summary: "A transaction's payments",
    ...HORIZON,
    pathParams: TX,
    query: pageQuery,
    success: page,
    errors: [404],
  },
  {
    method: 'get',
    path: path('/transactions/:hash/operations'),
    operationId: 'horizonTransactionOperations',
    summary: "A transaction's operations",
    ...HORIZON,
    pathParams: TX,
    query: pageQuery,
    success: page,
    errors: [404],
  },
  {
    method: 'get',
    path: path('/operations/:id'),
    operationId: 'horizonGetOperation',
    summary: 'One operation',
    ...HORIZON,
    pathParams: { id: 'Operation id' },
    query: recordQuery,
    success: record(),
    errors: [404],
  },
  {
    method: 'get',
    path: path('/ledgers/:sequence'),
    operationId: 'horizonGetLedger',
    summary: 'One closed ledger',
    ...HORIZON,
    pathParams: { sequence: 'Ledger sequence' },
    query: recordQuery,
    success: record(),
    errors: [404],
  },
  {
    method: 'get',
    path: path('/ledgers/:sequence/transactions'),
    operationId: 'horizonLedgerTransactions',
    summary: "A closed ledger's transactions",
    ...HORIZON,
    pathParams: LEDGER,
    query: pageQuery,
    success: pageOrStream,
    errors: [404],
  },
  {
    method: 'get',
    path: path('/ledgers/:sequence/payments'),
    operationId: 'horizonLedgerPayments',
    summary: "A closed ledger's payments",
    ...HORIZON,
    pathParams: LEDGER,
    query: pageQuery,
    success: pageOrStream,
    errors: [404],
  },
  {
    method: 'get',
    path: path('/ledgers/:sequence/operations'),
    operationId: 'horizonLedgerOperations',
    summary: "A closed ledger's operations (all payments)",
    ...HORIZON,
    pathParams: LEDGER,
    query: pageQuery,
    success: pageOrStream,
    errors: [404],
  },
  {
    method: 'get',
    path: path('/effects'),
    operationId: 'horizonEffects',
    summary: 'Every effect',
    ...HORIZON,
    query: effectsPageQuery,
    success: pageOrStream,
    errors: [],
  },
  {
    method: 'get',
    path: path('/accounts/:accountId/effects'),
    operationId: 'horizonAccountEffects',
    summary: "An account's effects (account_credited, account_debited)",
    ...HORIZON,
    pathParams: ACCOUNT,
    query: effectsPageQuery,
    success: pageOrStream,
    errors: [404],
  },
  {
    method: 'get',
    path: path('/transactions/:hash/effects'),
    operationId: 'horizonTransactionEffects',
    summary: "A transaction's effects",
    ...HORIZON,
    pathParams: TX,
    query: effectsPageQuery,
    success: pageOrStream,
    errors: [404],
  },
  {
    method: 'get',
    path: path('/operations/:id/effects'),
    operationId: 'horizonOperationEffects',
    summary: "An operation's effects",
    ...HORIZON,
    pathParams: { id: 'Operation id' },
    query: effectsPageQuery,
    success: page,
    errors: [404],
  },
  {
    method: 'get',
    path: path('/ledgers/:sequence/effects'),
    operationId: 'horizonLedgerEffects',
    summary: "A closed ledger's effects",
    ...HORIZON,
    pathParams: LEDGER,
    query: effectsPageQuery,
    success: pageOrStream,
    errors: [404],
  },
] as const satisfies readonly Operation[]
