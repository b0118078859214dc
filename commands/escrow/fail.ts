import { Args, Flags } from '@oclif/core'
import type { Payment } from '../../src/client/types.js'
import { ApiCommand } from '../../src/cli/base-command.js'
import { fetchPrecisions, renderPayment } from '../../src/cli/render/payments.js'

export default class EscrowFail extends ApiCommand<typeof EscrowFail> {
  static override args = {
    paymentId: Args.string({ description: 'Payment id (pt_…) of an unfunded escrow order', required: true }),
  }

  static override summary = 'Simulate a failed funding: an unfunded escrow order and its payment become failed'
  static override examples = [
    '<%= config.bin %> <%= command.id %> pt_0194…',
    '<%= config.bin %> <%= command.id %> pt_0194… --reason "Customer wallet rejected the transaction" --json',
  ]

  static override flags = {
    reason: Flags.string({ description: "Why the funding failed, recorded in the payment's history" }),
  }

  public async run(): Promise<Payment> {
    const client = this.client()
    const payment = await client.escrow.fail(this.args.paymentId, { reason: this.flags.reason })
    if (!this.jsonEnabled()) this.print(renderPayment(payment, await fetchPrecisions(client)))
    return payment
  }
}
