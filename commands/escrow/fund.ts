import { Args, Flags } from '@oclif/core'
import type { EscrowOrder, Payment } from '../../src/client/types.js'
import { ApiCommand } from '../../src/cli/base-command.js'
import { UserError } from '../../src/user-error.js'
import { accountAddressFlag, minorUnitsFlag } from '../../src/cli/flag-values.js'
import { usdcWorth } from '../../src/cli/payment-simulation.js'
import { renderEscrowOrder } from '../../src/cli/render/escrow.js'
import { fetchPrecisions, renderPayment, renderPaySummary } from '../../src/cli/render/payments.js'

export interface EscrowFundResult {
  payment: Payment
  escrow: EscrowOrder
}

export default class EscrowFund extends ApiCommand<typeof EscrowFund> {
  static override args = {
    paymentId: Args.string({ description: 'Payment id (pt_…) of an escrow merchant', required: true }),
  }

  static override summary = 'Fund an escrow order: a sandbox customer pays its payment into the escrow contract'
  static override description =
    'The same customer payment as `payments pay`: without --amount it pays what remains, and the order is funded once the ' +
    'payment is paid in full (a smaller --amount leaves it underpaid and the order unfunded). --amount is in major units of the ' +
    "payment's currency."

  static override examples = [
    '<%= config.bin %> <%= command.id %> pt_0194…',
    '<%= config.bin %> <%= command.id %> pt_0194… --amount 5.00 --from GCUST…',
    '<%= config.bin %> <%= command.id %> pt_0194… --json',
  ]

  static override flags = {
    amount: Flags.string({ description: "Amount in major units of the payment's currency, e.g. 5.00 (default: what remains)" }),
    from: Flags.string({ description: 'Paying customer wallet, G… (default: the one holding the most USDC)' }),
  }

  public async run(): Promise<EscrowFundResult> {
    const { args, flags } = this
    const client = this.client()
    const from = flags.from === undefined ? undefined : await accountAddressFlag(flags.from, 'from')
    const before = await client.payments.get(args.paymentId)
    // Paying a direct merchant's payment would succeed, and fund nothing: refuse before any money moves.
    if (before.escrow_status === undefined) {
      throw new UserError(
        `Payment ${before.id} belongs to a direct merchant and has no escrow order`,
        `pay it with: paybox payments pay ${before.id}`,
      )
    }
    const precisions = await fetchPrecisions(client)
    const amount = flags.amount === undefined ? undefined : minorUnitsFlag(flags.amount, before.amount.currency, precisions)

    const payment = await client.sandbox.pay(args.paymentId, { amount, from })
    const escrow = await client.escrow.status(args.paymentId)
    if (!this.jsonEnabled()) {
      const units = amount ?? payment.amount_paid - before.amount_paid
      this.print(renderPayment(payment, precisions))
      this.print(renderPaySummary(payment, { units, usdc: usdcWorth(before, units) }, precisions))
      this.print(renderEscrowOrder(escrow))
    }
    return { payment, escrow }
  }
}
