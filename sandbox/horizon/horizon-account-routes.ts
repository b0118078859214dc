// Horizon's accounts: an account, its data entries, and its transactions, payments and effects.
import { StrKey } from '@stellar/stellar-base'
import type { Request, RequestHandler } from 'express'
import type { LedgerAccount } from '../ledger/ledger-types.js'
import { effectsListOrStream, listOrStream, paymentsAfter, transactionsAfter, type HorizonScope } from './horizon-listing.js'
import { recordQuery } from './horizon-paging.js'
import { badRequestProblem, notFoundProblem } from './horizon-problems.js'
import { creationLedger, toAccountRecord, type AccountActivity } from './horizon-resources.js'

export function horizonAccountHandlers(s: HorizonScope) {
  const { ctx } = s
  const accountParam = async (req: Request): Promise<LedgerAccount> => {
    const id = String(req.params.accountId)
    if (!StrKey.isValidEd25519PublicKey(id))
      throw badRequestProblem(`account_id: ${id.slice(0, 64)} is not a Stellar account address (G…)`, 'account_id')
    const account = await ctx.ledger.getAccount(ctx.db, id)
    if (!account) throw notFoundProblem(`No account ${id} on the sandbox ledger.`)
    return account
  }

  const activityOf = async (account: LedgerAccount): Promise<AccountActivity> => {
    // A failed transaction modified the account too: its fee and sequence number.
    const [last] = await ctx.ledger.listTransactions(ctx.db, { account: account.publicKey, order: 'desc', limit: 1, includeFailed: true })
    return last ? { ledger: last.ledgerSequence, at: last.appliedAt } : { ledger: creationLedger(account), at: account.createdAt }
  }

  const getAccount: RequestHandler = async (req, res) => {
    recordQuery.parse(req.query)
    const account = await accountParam(req)
    res.json(toAccountRecord(s.h, account, await activityOf(account)))
  }

  // Sandbox accounts hold no data entries: every key is missing, as on Horizon.
  const getAccountData: RequestHandler = async (req) => {
    recordQuery.parse(req.query)
    const account = await accountParam(req)
    throw notFoundProblem(`Account ${account.publicKey} has no data entry ${String(req.params.key).slice(0, 64)}.`)
  }

  const accountTransactions: RequestHandler = async (req, res) => {
    const { publicKey } = await accountParam(req)
    await listOrStream(s, req, res, transactionsAfter, { account: publicKey })
  }

  // Every operation on the sandbox ledger is a payment: /operations lists the same records.
  const accountPayments: RequestHandler = async (req, res) => {
    const { publicKey } = await accountParam(req)
    await listOrStream(s, req, res, paymentsAfter, { account: publicKey })
  }

  const accountEffects: RequestHandler = async (req, res) => {
    const { publicKey } = await accountParam(req)
    await effectsListOrStream(s, req, res, { account: publicKey })
  }

  return { getAccount, getAccountData, accountTransactions, accountPayments, accountEffects }
}
