// Escrow orders in the terminal: the order with its custody, the ledger transactions that
// funded, released or refunded it, and what a release paid out.
import type { EscrowOrder, Payment } from '../../client/types.js'
import { chalk, colourStatus, details, table } from '../output.js'
import { formatUsdc, stroopsOf } from '../usdc.js'
import { shortHash } from './ledger.js'

const ESCROW_COLOURS: Record<string, (text: string) => string> = {
  created: chalk.cyan,
  funded: chalk.green,
  failed: chalk.red,
}

const colourEscrow = (status: string): string => (ESCROW_COLOURS[status] ?? ((text: string) => text))(status)

/** The order itself: where its money is, who a release pays, and until when it can be funded. */
export function renderEscrowOrder(order: EscrowOrder): string {
  const { release } = order
  return details([
    ['Escrow order', order.escrow_order_id],
    ['Payment', order.paymentId],
    // The API's escrow_status stays funded after a release (the spec has no released status): say both.
    ['Escrow status', release ? `${colourEscrow(order.escrow_status)}, released` : colourEscrow(order.escrow_status)],
    ['Contract', order.escrow_contract_address],
    ['Custody account', order.custody_account],
    // The custody holds every order's funds; `held` is this order's share until its release.
    ['Contract balance', `${order.contract_balance} USDC`],
    ['Held', `${order.held} USDC`],
    ['Payee', order.payee],
    ['Platform fee', `${order.escrow_platform_fee_bps} bps`],
    ['Expires', order.escrow_expires_at ?? 'never'],
    ['Settlement', colourStatus(order.settlement_status)],
    ['Released', release?.released_at],
    ['Release tx', release?.transaction],
  ])
}

/** The order's ledger transactions, oldest first; the custody and the payee by name, as above the table. */
export function renderEscrowTransactions(order: EscrowOrder): string {
  if (order.transactions.length === 0) return 'No ledger transactions yet: the order is unfunded.'
  const name = (account: string): string => (account === order.custody_account ? 'custody' : account === order.payee ? 'payee' : account)
  const rows = order.transactions.map((tx) => [
    tx.ledger,
    shortHash(tx.hash),
    tx.operations.map((op) => `${name(op.from)} → ${name(op.to)}`).join('\n'),
    tx.operations.map((op) => `${op.amount} ${op.asset}`).join('\n'),
    tx.appliedAt,
  ])
  return table(['Ledger', 'Hash', 'From → To', 'Amount', 'Time'], rows)
}

export const renderEscrowStatus = (order: EscrowOrder): string =>
  [renderEscrowOrder(order), chalk.bold('Ledger transactions'), renderEscrowTransactions(order)].join('\n')

/** What a release paid: the payee's amount, the platform's fee and the transaction that moved them. */
export function renderEscrowRelease(payment: Payment): string {
  return details([
    ['Payee amount', formatUsdc(stroopsOf(payment.settlement_amount))],
    ['Platform fee', `${formatUsdc(stroopsOf(payment.settlement_fee))} (${payment.escrow_platform_fee_bps ?? 0} bps)`],
    ['Settlement tx', payment.settlement_stellarTxId],
    ['Settlement', colourStatus(payment.settlement_status)],
  ])
}
