import { Args, Flags } from '@oclif/core'
import { LEDGER_ASSET_CODES, type LedgerAssetCode, type Payment } from '../../src/client/types.js'
import { ApiCommand } from '../../src/cli/base-command.js'
import { accountAddressFlag, idempotencyKeyFlag, minorUnitsFlag, oneOfFlags } from '../../src/cli/flag-values.js'
import { remainingOf, usdcWorth } from '../../src/cli/payment-simulation.js'
import { formatAmount, fetchPrecisions, renderPayment, renderPaySummary } from '../../src/cli/render/payments.js'
import { USDC_SCALE, formatDecimal } from '../../src/money.js'

export default class PaymentsPay extends ApiCommand<typeof PaymentsPay> {
  static override args = {
    id: Args.string({ description: 'Payment id (pt_…)', required: true }),
  }

  static override summary = 'Simulate a customer paying a payment over the sandbox ledger'
  static override description =
    "A sandbox customer wallet sends USDC to the payment's destination with its memo, as a real wallet would. " +
    "Without an amount it pays exactly what remains. --amount is in major units of the payment's currency. " +
    "--memo and --asset XLM simulate a customer's mistake: the money lands on the payment's destination but pays nothing."

  static override examples = [
    '<%= config.bin %> <%= command.id %> pt_0194…',
    '<%= config.bin %> <%= command.id %> pt_0194… --amount 5.00',
    '<%= config.bin %> <%= command.id %> pt_0194… --underpay',
    '<%= config.bin %> <%= command.id %> pt_0194… --overpay --from GCUST…',
    '<%= config.bin %> <%= command.id %> pt_0194… --fail-settlement --json',
    '<%= config.bin %> <%= command.id %> pt_0194… --memo wrong-memo',
    '<%= config.bin %> <%= command.id %> pt_0194… --asset XLM',
  ]

  // --amount, --underpay and --overpay are alternatives (checked in run()).
  static override flags = {
    amount: Flags.string({ description: "Amount in major units of the payment's currency, e.g. 5.00" }),
    underpay: Flags.boolean({ description: 'Pay half of what remains, leaving the payment underpaid (the sandbox decides the amount)' }),
    overpay: Flags.boolean({ description: 'Pay what remains plus 10% of the amount (the sandbox decides the amount)' }),
    from: Flags.string({ description: 'Paying customer wallet, G… (default: the one holding the most USDC)' }),
    'fail-settlement': Flags.boolean({ description: 'Make the settlement of this payment fail when it comes' }),
    memo: Flags.string({ description: "Send with this text memo instead of the payment's (a wrong memo: the money lands, pays nothing)" }),
    asset: Flags.string({
      description: 'Send this asset; XLM is a wrong asset: the money lands, pays nothing',
      options: [...LEDGER_ASSET_CODES],
    }),
    'idempotency-key': idempotencyKeyFlag('pays'),
  }

  public async run(): Promise<Payment> {
    const { args, flags } = this
    oneOfFlags(flags, ['amount', 'underpay', 'overpay'])
    const client = this.client()
    const from = flags.from === undefined ? undefined : await accountAddressFlag(flags.from, 'from')
    const before = await client.payments.get(args.id)
    const precisions = await fetchPrecisions(client)
    const amount = flags.amount === undefined ? undefined : minorUnitsFlag(flags.amount, before.amount.currency, precisions)

    const asset = flags.asset as LedgerAssetCode | undefined
    const payment = await client.sandbox.pay(
      args.id,
      {
        amount,
        underpay: flags.underpay || undefined,
        overpay: flags.overpay || undefined,
        from,
        failSettlement: flags['fail-settlement'] || undefined,
        memo: flags.memo,
        asset,
      },
      { idempotencyKey: flags['idempotency-key'] },
    )
    if (!this.jsonEnabled() && (flags.memo !== undefined || asset === 'XLM')) {
      // A mistaken payment credits nothing: say what was sent instead of what was paid.
      const units = amount ?? remainingOf(before)
      const sent = `${formatDecimal(usdcWorth(before, units), USDC_SCALE)} ${asset ?? 'USDC'}`
      const memo = flags.memo === undefined ? '' : ` with memo "${flags.memo}"`
      this.print(renderPayment(payment, precisions))
      this.print(`Sent ${sent} (${formatAmount(units, before.amount.currency, precisions)} worth)${memo}; status ${payment.status}`)
    } else if (!this.jsonEnabled()) {
      // Without an amount (what remained, or the sandbox's underpayment or overpayment), what the
      // payment was credited. Its price in USDC is read before paying, as settlement may since
      // have deducted fees.
      const units = amount ?? payment.amount_paid - before.amount_paid
      this.print(renderPayment(payment, precisions))
      this.print(renderPaySummary(payment, { units, usdc: usdcWorth(before, units) }, precisions))
    }
    return payment
  }
}
