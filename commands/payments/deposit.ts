import { Args, Flags } from '@oclif/core'
import type { CrossChainQuote, Payment } from '../../src/client/types.js'
import { ApiCommand } from '../../src/cli/base-command.js'
import { UserError } from '../../src/user-error.js'
import { idempotencyKeyFlag } from '../../src/cli/flag-values.js'
import { renderQuote } from '../../src/cli/render/cross-chain.js'
import { fetchPrecisions, renderPayment } from '../../src/cli/render/payments.js'

export default class PaymentsDeposit extends ApiCommand<typeof PaymentsDeposit> {
  static override args = {
    quoteId: Args.string({ description: 'Cross-chain quote id (qt_…)', required: true }),
  }

  static override summary = "Simulate the customer's deposit on the origin chain arriving at the bridge"
  static override description =
    'Once the quoted amount is in before the deadline, the bridge swaps it and the USDC reaches the payment over the sandbox ledger ' +
    'with its memo. A smaller deposit is held (INCOMPLETE_DEPOSIT) until topped up, or refunded at the deadline; a late deposit, one ' +
    'to a superseded quote, and --fail are refunded (docs/bridge.md).'

  static override examples = [
    '<%= config.bin %> <%= command.id %> qt_0194…',
    '<%= config.bin %> <%= command.id %> qt_0194… --amount 50.15',
    '<%= config.bin %> <%= command.id %> qt_0194… --fail',
  ]

  static override flags = {
    amount: Flags.string({ description: 'Amount sent, in the origin token (default: what the order still lacks)' }),
    fail: Flags.boolean({ description: 'The simulated bridge fails the order: everything deposited is refunded', default: false }),
    'idempotency-key': idempotencyKeyFlag('deposits'),
  }

  public async run(): Promise<{ quote: CrossChainQuote; payment: Payment }> {
    const amount = this.flags.amount
    if (amount !== undefined && !/^\d+(\.\d+)?$/.test(amount)) {
      throw new UserError(`--amount must be a positive decimal amount of the origin token, got "${amount}"`)
    }
    const client = this.client()
    const result = await client.crossChain.deposit(
      this.args.quoteId,
      {
        ...(amount === undefined ? {} : { amountIn: amount }),
        ...(this.flags.fail ? { fail: true } : {}),
      },
      { idempotencyKey: this.flags['idempotency-key'] },
    )
    if (!this.jsonEnabled()) {
      this.print(renderQuote(result.quote))
      this.print(renderPayment(result.payment, await fetchPrecisions(client)))
    }
    return result
  }
}
