// The Horizon-compatible API under /horizon, as operations of the document. Its records are
// Horizon's own (https://developers.stellar.org/docs/data/apis/horizon/api-reference) and are
// described loosely here; its errors are Horizon problem documents.
import { z } from 'zod'
import { HORIZON_PATH, submitForm } from './horizon-requests.js'
import { effectsPageQuery } from './horizon-effects.js'
import { pageQuery, recordQuery } from './horizon-paging.js'
import type { HandlerOf } from '../http/declared-routes.js'
import type { Operation } from '../http/operation.js'

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

/** A GET of Horizon's: a record or a page under `suffix`; one whose path parameters name nothing is a 404. */
function get<Id extends string>(
  suffix: string,
  operationId: Id,
  summary: string,
  query: Operation['query'],
  success: Operation['success'],
  pathParams?: Operation['pathParams'],
) {
  return {
    method: 'get' as const,
    path: path(suffix),
    operationId,
    summary,
    ...HORIZON,
    ...(pathParams === undefined ? {} : { pathParams }),
    query,
    success,
    errors: pathParams === undefined ? [] : [404],
  } satisfies Operation
}

export const HORIZON_OPERATIONS = [
  get('', 'horizonRoot', 'Horizon root: network passphrase and latest ledger', recordQuery, record()),
  get('/fee_stats', 'horizonFeeStats', 'Fee statistics', recordQuery, record()),
  get('/accounts/:accountId', 'horizonGetAccount', 'An account: sequence, balances, signers', recordQuery, record(), ACCOUNT),
  get('/accounts/:accountId/data/:key', 'horizonGetAccountData', 'A data entry (sandbox accounts hold none: always 404)', recordQuery, [], {
    ...ACCOUNT,
    key: 'Data entry name',
  }),
  get('/accounts/:accountId/transactions', 'horizonAccountTransactions', "An account's transactions", pageQuery, pageOrStream, ACCOUNT),
  get('/accounts/:accountId/payments', 'horizonAccountPayments', "An account's payments", pageQuery, pageOrStream, ACCOUNT),
  get(
    '/accounts/:accountId/operations',
    'horizonAccountOperations',
    "An account's operations (all payments)",
    pageQuery,
    pageOrStream,
    ACCOUNT,
  ),
  get('/payments', 'horizonPayments', 'Every payment', pageQuery, pageOrStream),
  get('/operations', 'horizonOperations', 'Every operation (all payments)', pageQuery, pageOrStream),
  get('/transactions', 'horizonTransactions', 'Every transaction', pageQuery, pageOrStream),
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
  get('/transactions/:hash', 'horizonGetTransaction', 'One transaction', recordQuery, record(), TX),
  get('/transactions/:hash/payments', 'horizonTransactionPayments', "A transaction's payments", pageQuery, page, TX),
  get('/transactions/:hash/operations', 'horizonTransactionOperations', "A transaction's operations", pageQuery, page, TX),
  get('/operations/:id', 'horizonGetOperation', 'One operation', recordQuery, record(), { id: 'Operation id' }),
  get('/ledgers/:sequence', 'horizonGetLedger', 'One closed ledger', recordQuery, record(), { sequence: 'Ledger sequence' }),
  get('/ledgers/:sequence/transactions', 'horizonLedgerTransactions', "A closed ledger's transactions", pageQuery, pageOrStream, LEDGER),
  get('/ledgers/:sequence/payments', 'horizonLedgerPayments', "A closed ledger's payments", pageQuery, pageOrStream, LEDGER),
  get(
    '/ledgers/:sequence/operations',
    'horizonLedgerOperations',
    "A closed ledger's operations (all payments)",
    pageQuery,
    pageOrStream,
    LEDGER,
  ),
  get('/effects', 'horizonEffects', 'Every effect', effectsPageQuery, pageOrStream),
  get(
    '/accounts/:accountId/effects',
    'horizonAccountEffects',
    "An account's effects (account_credited, account_debited)",
    effectsPageQuery,
    pageOrStream,
    ACCOUNT,
  ),
  get('/transactions/:hash/effects', 'horizonTransactionEffects', "A transaction's effects", effectsPageQuery, pageOrStream, TX),
  get('/operations/:id/effects', 'horizonOperationEffects', "An operation's effects", effectsPageQuery, page, { id: 'Operation id' }),
  get('/ledgers/:sequence/effects', 'horizonLedgerEffects', "A closed ledger's effects", effectsPageQuery, pageOrStream, LEDGER),
] as const satisfies readonly Operation[]

/** A handler for every Horizon operation, by its operation id, with req.params typed from its path. */
export type HorizonHandlers = { [Op in (typeof HORIZON_OPERATIONS)[number] as Op['operationId']]: HandlerOf<Op['path']> }
