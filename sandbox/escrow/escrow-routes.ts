// Merchant-authenticated escrow controls for a payment (sandbox only): release, simulated
// funding failure, and the order's state with the contract's balance and the transactions.
import { USDC_SCALE, formatDecimal } from '../../src/money.js'
import { toIso } from '../clock.js'
import type { SandboxContext } from '../context.js'
import { currentMerchant } from '../http/auth.js'
import { actOnPayment } from '../payments/payment-action.js'
import { getPayment } from '../payments/payment-service.js'
import { failBody } from '../../src/api/contract/sandbox-simulations.js'
import { noBody } from '../../src/api/validation.js'
import { failEscrow, heldInCustody, releaseEscrow, releaseOf, requireEscrow } from './escrow-service.js'
import type { Handlers } from '../openapi/handlers.js'

export function escrowHandlers(ctx: SandboxContext) {
  return {
    releaseEscrow: async (req, res) => {
      noBody.parse(req.body)
      await actOnPayment(ctx, req, res, (trx, payment) => releaseEscrow(ctx, trx, payment))
    },
    failEscrow: async (req, res) => {
      const reason = failBody.parse(req.body)?.reason ?? 'simulated funding failure'
      await actOnPayment(ctx, req, res, (trx, payment) => failEscrow(ctx, trx, payment, reason))
    },
    getEscrowOrder: async (req, res) => {
      const payment = await getPayment(ctx.db, currentMerchant(req), req.params.id)
      requireEscrow(payment)
      const release = releaseOf(payment)
      const custody = await ctx.ledger.balances(ctx.db, ctx.identity.escrowCustody)
      const transactions = (await ctx.ledger.listTransactionsByMemo(ctx.db, payment.memo)).map((tx) => ({
        hash: tx.hash,
        ledger: tx.ledgerSequence,
        appliedAt: toIso(tx.appliedAt),
        successful: tx.successful,
        operations: tx.operations.map((op) => ({
          from: op.from,
          to: op.to,
          asset: op.asset,
          amount: formatDecimal(op.amount, USDC_SCALE),
        })),
      }))
      res.json({
        paymentId: payment.id,
        escrow_order_id: payment.escrow_order_id,
        escrow_status: payment.escrow_status,
        escrow_contract_address: payment.escrow_contract_address,
        custody_account: ctx.identity.escrowCustody,
        contract_balance: formatDecimal(custody?.usdc ?? 0n, USDC_SCALE),
        held: formatDecimal(heldInCustody(payment), USDC_SCALE),
        platform_fee_account: ctx.identity.platformFeeAccount,
        payee: payment.escrow_payee,
        escrow_platform_fee_bps: payment.escrow_fee_bps,
        escrow_expires_at: payment.escrow_expires_at === null ? null : toIso(payment.escrow_expires_at),
        settlement_status: payment.settlement_status,
        release: release && { status: release.status, released_at: toIso(release.releasedAt), transaction: release.transaction },
        transactions,
      })
    },
  } satisfies Partial<Handlers>
}
