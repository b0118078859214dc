import { Args } from '@oclif/core'
import type { Payment } from '../../src/client/types.js'
import { ApiCommand } from '../../src/cli/base-command.js'
import { idempotencyKeyFlag } from '../../src/cli/flag-values.js'
import { fetchPrecisions, renderPayment } from '../../src/cli/render/payments.js'

export default class PaymentsAcceptUnderpayment extends ApiCommand<typeof PaymentsAcceptUnderpayment> {
  static override args = {
    id: Args.string({ description: 'Payment id (pt_…) of an underpaid payment', required: true }),
  }

  static override summary = 'Accept what an underpaid payment received as payment in full'
  static override examples = ['<%= config.bin %> <%= command.id %> pt_0194…', '<%= config.bin %> <%= command.id %> pt_0194… --json']

  static override flags = {
    'idempotency-key': idempotencyKeyFlag('accepts'),
  }

  public async run(): Promise<Payment> {
    const client = this.client()
    const payment = await client.payments.acceptUnderpayment(this.args.id, { idempotencyKey: this.flags['idempotency-key'] })
    if (!this.jsonEnabled()) this.print(renderPayment(payment, await fetchPrecisions(client)))
    return payment
  }
}
