// Settlement: what happens to the money once a payment is paid (docs/payment-lifecycle.md).
// Direct merchants: the customer's USDC is already in the merchant's settlement account; the
// settlement transaction pays the commerce fee of the merchant's fee tier from it to the
// platform-fee account. settlement_status is processing while that transaction's ledger is
// open and paid once it closes. Escrow merchants: the payment funds the escrow order, and
// settlement waits for the release.
import type { Kysely } from 'kysely'
import { formatUsdcAmount } from '../../src/money.js'
import type { PaymentChangeEffect, PaymentChanges, SandboxIdentity } from '../context.js'
import type { Database, PaymentRow } from '../db/schema.js'
import { feeFor } from '../fees/fee-tiers.js'
import { merchantFeeTier } from '../fees/fee-tier-service.js'
import type { ClosedListener, Ledger } from '../ledger/ledger-types.js'
import { findMerchantById } from '../merchants/merchant-repository.js'
import { appendHistory, moveSettlementTo } from '../payments/payment-lifecycle.js'
import { findPaymentForChange, findSettlementsInLedgers } from '../payments/payment-repository.js'
import { merchantTimeOr } from '../merchants/merchant-time.js'
import type { ClockSources } from '../clock.js'

export interface SettlementDeps {
  ledger: Ledger
  identity: Pick<SandboxIdentity, 'platformFeeAccount'>
  payments: PaymentChanges
}

/** The payment-change effect: a payment that has just become paid starts settling. */
export function settleWhenPaid(deps: SettlementDeps): PaymentChangeEffect {
  return async (db, before, after) => {
    if (after.status === 'paid' && before !== undefined && before.status !== 'paid')
      await startSettlement(deps, db, after, after.updated_at)
  }
}

/**
 * Starts settling a payment that has just become paid, in the caller's transaction, and
 * returns the row as it now is. Everything received settles, overpayments included.
 */
async function startSettlement(deps: SettlementDeps, db: Kysely<Database>, payment: PaymentRow, now: number): Promise<PaymentRow> {
  if (payment.escrow_status !== null) {
    const history = appendHistory(payment.history, { time: now, status: 'escrow_funded', description: 'Escrow order funded' })
    return deps.payments.save(db, payment, { escrow_status: 'funded', history, updated_at: now })
  }
  const merchant = await findMerchantById(db, payment.merchant_id)
  if (!merchant) throw new Error(`Payment ${payment.id} belongs to no merchant`)
  const received = BigInt(payment.usdc_received)
  const { tier } = await merchantFeeTier(db, merchant.id, now)
  const fee = feeFor(received, tier.rateBps)
  const amounts = { settlement_amount: Number(received - fee), settlement_fee: Number(fee) }
  if (payment.settlement_will_fail === 1) {
    const change = moveSettlementTo(payment, 'failed', 'Settlement failed (simulated); the funds stay in the merchant account', now)
    return deps.payments.save(db, payment, { ...change, ...amounts })
  }
  // The payment records its settlement transaction before that transaction's ledger can close.
  return deps.ledger.inOneLedger(db, async () => {
    const tx = await deps.ledger.pay(db, {
      source: merchant.account_id,
      payments: [{ from: merchant.account_id, to: deps.identity.platformFeeAccount, asset: 'USDC', amount: fee }],
      memo: payment.memo,
    })
    const description = `Settlement submitted: ${formatUsdcAmount(received - fee)} to the merchant, fee ${formatUsdcAmount(fee)} (${tier.name}, ${tier.rateBps / 100}%)`
    const change = moveSettlementTo(payment, 'processing', description, now)
    return deps.payments.save(db, payment, { ...change, ...amounts, settlement_tx_id: tx.hash })
  })
}

/** The ledger-close listener: settlements whose transaction is now in a closed ledger are paid. */
export function completeSettlements(deps: Pick<SettlementDeps, 'payments'> & ClockSources): ClosedListener {
  return async (db, ledger) => {
    const closedAt = ledger.closedAt ?? ledger.openedAt
    for (const settling of await findSettlementsInLedgers(db, ledger.sequence)) {
      // Read again, locked, as every change of a payment is: a refund of it in flight commits
      // first, and its change (history included) is kept. (Here the ledger's rows come first.)
      const payment = (await findPaymentForChange(db, { id: settling.id }))!
      if (payment.settlement_status !== 'processing') continue
      // The ledger's close time is global; the payment's settled time is its merchant's (the fee-tier window reads it).
      const settledAt = await merchantTimeOr(deps, db, payment.merchant_id, closedAt)
      const change = moveSettlementTo(payment, 'paid', `Settled to the merchant account in ledger ${ledger.sequence}`, settledAt)
      await deps.payments.save(db, payment, { ...change, settled_at: settledAt })
    }
  }
}
