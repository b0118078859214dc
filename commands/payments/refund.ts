import { Args, Flags } from '@oclif/core'
import type { Refund } from '../../src/client/types.js'
import { ApiCommand } from '../../src/cli/base-command.js'
import { idempotencyKeyFlag, metadataFlag, minorUnitsFlag } from '../../src/cli/flag-values.js'
import { fetchPrecisions } from '../../src/cli/render/payments.js'
import { renderRefund } from '../../src/cli/render/refunds.js'

export default class PaymentsRefund extends ApiCommand<typeof PaymentsRefund> {
  static override args = {
    id: Args.string({ description: 'Payment id (pt_…)', required: true }),
  }

  static override summary = 'Refund a payment to the customer over the ledger'
  static override description =
    "Without --amount it refunds everything still refundable. --amount is in major units of the payment's currency; " +
    'the refund itself is paid in USDC.'

  static override examples = [
    '<%= config.bin %> <%= command.id %> pt_0194…',
    '<%= config.bin %> <%= command.id %> pt_0194… --amount 5.00 --description "Damaged item" --metadata ticket=T-17',
  ]

  static override flags = {
    amount: Flags.string({ description: "Amount in major units of the payment's currency (default: all that is refundable)" }),
    description: Flags.string({ description: 'Why the money goes back' }),
    metadata: Flags.string({ description: 'Metadata entry key=value (repeatable)', multiple: true }),
    'idempotency-key': idempotencyKeyFlag('refunds'),
  }

  public async run(): Promise<Refund> {
    const { args, flags } = this
    const client = this.client()
    const metadata = flags.metadata ? metadataFlag(flags.metadata) : undefined
    let amount: number | undefined
    if (flags.amount !== undefined) {
      const { currency } = (await client.payments.get(args.id)).amount
      amount = minorUnitsFlag(flags.amount, currency, await fetchPrecisions(client))
    }
    const refund = await client.payments.refund(
      args.id,
      { amount, description: flags.description, metadata },
      { idempotencyKey: flags['idempotency-key'] },
    )
    this.print(renderRefund(refund))
    return refund
  }
}
