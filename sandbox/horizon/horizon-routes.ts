// The subset of Horizon's REST API that @stellar/stellar-sdk's Horizon.Server uses, served from
// the sandbox ledger under /horizon, without authentication like Horizon itself: load accounts,
// submit signed transactions (through the same applyEnvelope, and so the same memo matching, as
// every other movement), read transactions, payments and ledgers, page and stream them.
import { Router } from 'express'
import type { SandboxContext } from '../context.js'
import type { HorizonHandlers } from './horizon-operations.js'
import { horizonAccountHandlers } from './horizon-account-routes.js'
import { horizonLedgerHandlers } from './horizon-ledger-routes.js'
import { horizonScope } from './horizon-listing.js'
import { horizonOperationHandlers } from './horizon-operation-routes.js'
import { horizonErrors, horizonNotFound } from './horizon-problems.js'
import { horizonSubmissionHandlers } from './horizon-submission-routes.js'
import { horizonTransactionHandlers } from './horizon-transaction-routes.js'

/** Each Horizon operation's handler, from the module of its resource. */
export function horizonHandlers(ctx: SandboxContext) {
  const scope = horizonScope(ctx)
  const ledgers = horizonLedgerHandlers(scope)
  const accounts = horizonAccountHandlers(scope)
  const transactions = horizonTransactionHandlers(scope)
  const operations = horizonOperationHandlers(scope)
  return {
    horizonRoot: ledgers.root,
    horizonFeeStats: ledgers.feeStats,
    horizonGetAccount: accounts.getAccount,
    horizonGetAccountData: accounts.getAccountData,
    horizonAccountTransactions: accounts.accountTransactions,
    horizonAccountPayments: accounts.accountPayments,
    horizonAccountOperations: accounts.accountPayments,
    horizonPayments: operations.payments,
    horizonOperations: operations.payments,
    horizonTransactions: transactions.transactions,
    horizonSubmitTransaction: horizonSubmissionHandlers(scope).submitTransaction,
    horizonGetTransaction: transactions.getTransaction,
    horizonTransactionPayments: transactions.transactionPayments,
    horizonTransactionOperations: transactions.transactionPayments,
    horizonGetOperation: operations.getOperation,
    horizonGetLedger: ledgers.getLedger,
    horizonLedgerTransactions: ledgers.ledgerTransactions,
    horizonLedgerPayments: ledgers.ledgerPayments,
    horizonLedgerOperations: ledgers.ledgerPayments,
    horizonEffects: operations.allEffects,
    horizonAccountEffects: accounts.accountEffects,
    horizonTransactionEffects: transactions.transactionEffects,
    horizonOperationEffects: operations.operationEffects,
    horizonLedgerEffects: ledgers.ledgerEffects,
  } satisfies Partial<HorizonHandlers>
}

/**
 * Around Horizon's routes: its Date header is the business clock (server.fetchTimebounds() then
 * gives bounds the ledger accepts even after `sandbox clock advance`), and what no route
 * answers, or what fails, is a Horizon problem document.
 */
export function horizonRouter(ctx: Pick<SandboxContext, 'clock'>, routes: Router): Router {
  return Router()
    .use((_req, res, next) => {
      res.setHeader('Date', new Date(ctx.clock.now()).toUTCString())
      next()
    })
    .use(routes)
    .use(horizonNotFound)
    .use(horizonErrors)
}
