import { Args } from '@oclif/core'
import type { Payment } from '../../src/client/types.js'
import { ApiCommand } from '../../src/cli/base-command.js'
import { fetchPrecisions, renderPayment } from '../../src/cli/render/payments.js'

export default class PaymentsExpire extends ApiCommand<typeof PaymentsExpire> {
  static override args = {
    id: Args.string({ description: 'Payment id (pt_…)', required: true }),
  }

  static override summary = 'Expire a payment now, whatever its expiry time'
  static override examples = ['<%= config.bin %> <%= command.id %> pt_0194…', '<%= config.bin %> <%= command.id %> pt_0194… --json']

  public async run(): Promise<Payment> {
    const client = this.client()
    const payment = await client.sandbox.expire(this.args.id)
    if (!this.jsonEnabled()) this.print(renderPayment(payment, await fetchPrecisions(client)))
    return payment
  }
}
