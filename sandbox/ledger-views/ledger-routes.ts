// Read-only views of the simulated ledger for the sandbox's own tools (admin token):
// accounts with balances, transactions (filter by account, page by position), one transaction
// decoded. Amounts are decimal text with 7 places, as Horizon shows them.
import { TransactionBuilder } from '@stellar/stellar-base'
import { ledgerAccountsQuery, ledgerTransactionsQuery } from '../../src/api/contract/sandbox-admin.js'
import { USDC_SCALE, formatDecimal } from '../../src/money.js'
import { toIso } from '../clock.js'
import type { SandboxContext } from '../context.js'
import { HORIZON_PATH } from '../horizon/horizon-requests.js'
import { notFound } from '../errors.js'
import { findPaymentByMemo } from '../payments/payment-repository.js'
import type { LedgerAccount, LedgerTransaction } from '../ledger/ledger-types.js'
import type { Handlers } from '../openapi/handlers.js'

const HASH = /^[0-9a-fA-F]{64}$/

const amount = (stroops: bigint): string => formatDecimal(stroops, USDC_SCALE)

function toAccountView(account: LedgerAccount) {
  return {
    publicKey: account.publicKey,
    role: account.role,
    label: account.label,
    sequence: account.sequence.toString(),
    balances: { USDC: amount(account.balances.usdc), XLM: amount(account.balances.xlm) },
    createdAt: toIso(account.createdAt),
  }
}

export function ledgerHandlers(ctx: SandboxContext) {
  /**
   * Views of transactions; each ledger's close time is read once, however many transactions it
   * holds, and so is the payment each text memo names.
   */
  const toTransactionViews = async (transactions: LedgerTransaction[]) => {
    const sequences = [...new Set(transactions.map((tx) => tx.ledgerSequence))]
    const ledgers = new Map(
      await Promise.all(sequences.map(async (sequence) => [sequence, await ctx.ledger.getLedger(ctx.db, sequence)] as const)),
    )
    const memos = [...new Set(transactions.flatMap((tx) => (tx.memoType === 'text' && tx.memo !== null ? [tx.memo] : [])))]
    const payments = new Map(
      await Promise.all(memos.map(async (memo) => [memo, (await findPaymentByMemo(ctx.db, memo))?.id ?? null] as const)),
    )
    return transactions.map((tx) => {
      const payment = tx.memoType === 'text' && tx.memo !== null ? (payments.get(tx.memo) ?? null) : null
      return toTransactionView(tx, ledgers.get(tx.ledgerSequence)?.closedAt ?? null, payment)
    })
  }

  /** `payment`: the payment whose memo the transaction carries; `unmatched`: it carries a memo no payment has (the money landed all the same). */
  const toTransactionView = (tx: LedgerTransaction, closedAt: number | null, payment: string | null) => {
    const envelope = TransactionBuilder.fromXDR(tx.envelopeXdr, ctx.ledger.networkPassphrase)
    return {
      hash: tx.hash,
      position: tx.position,
      ledger: tx.ledgerSequence,
      sourceAccount: tx.sourceAccount,
      sourceSequence: tx.sourceSequence.toString(),
      feeCharged: tx.feeCharged.toString(),
      successful: tx.successful,
      operationResults: tx.operationResults,
      memoType: tx.memoType,
      memo: tx.memo,
      operations: tx.operations.map((op) => ({ ...op, amount: amount(op.amount) })),
      signatures: envelope.signatures.length,
      envelopeXdr: tx.envelopeXdr,
      appliedAt: toIso(tx.appliedAt),
      closedAt: closedAt === null ? null : toIso(closedAt),
      payment,
      // A failed transaction moved nothing, so its memo left nothing unmatched either.
      unmatched: tx.successful && tx.memoType !== 'none' && payment === null,
      horizonUrl: `${ctx.publicUrl}${HORIZON_PATH}/transactions/${tx.hash}`,
    }
  }
  return {
    listLedgerAccounts: async (req, res) => {
      const { role } = ledgerAccountsQuery.parse(req.query)
      res.json({ items: (await ctx.ledger.listAccounts(ctx.db, { role })).map(toAccountView) })
    },
    listLedgerTransactions: async (req, res) => {
      const query = ledgerTransactionsQuery.parse(req.query)
      // The operator's view: transactions included as failed too, marked so.
      const transactions = await ctx.ledger.listTransactions(ctx.db, { ...query, includeFailed: true })
      res.json({ items: await toTransactionViews(transactions) })
    },
    getLedgerTransaction: async (req, res) => {
      const { hash } = req.params
      const tx = HASH.test(hash) ? await ctx.ledger.getTransaction(ctx.db, hash) : undefined
      if (!tx) throw notFound(`No ledger transaction ${hash.slice(0, 80)}`)
      res.json((await toTransactionViews([tx]))[0])
    },
  } satisfies Partial<Handlers>
}
