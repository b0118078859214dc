import { Args } from '@oclif/core'
import type { Payment } from '../../src/client/types.js'
import { ApiCommand } from '../../src/cli/base-command.js'
import { idempotencyKeyFlag } from '../../src/cli/flag-values.js'
import { renderEscrowRelease } from '../../src/cli/render/escrow.js'
import { fetchPrecisions, renderPayment } from '../../src/cli/render/payments.js'

export default class EscrowRelease extends ApiCommand<typeof EscrowRelease> {
  static override args = {
    paymentId: Args.string({ description: 'Payment id (pt_…) of a funded escrow order', required: true }),
  }

  static override summary = 'Release a funded escrow order: the payee gets what it holds less the platform fee'
  static override description =
    'One ledger transaction from the escrow custody pays the payee and the platform-fee account; the fee is amount × bps / 10000, ' +
    "rounded down to the stroop. The payment's settlement follows that transaction (processing, then paid). An order can be released once."

  static override examples = ['<%= config.bin %> <%= command.id %> pt_0194…', '<%= config.bin %> <%= command.id %> pt_0194… --json']

  static override flags = {
    'idempotency-key': idempotencyKeyFlag('releases'),
  }

  public async run(): Promise<Payment> {
    const client = this.client()
    const payment = await client.escrow.release(this.args.paymentId, { idempotencyKey: this.flags['idempotency-key'] })
    if (!this.jsonEnabled()) {
      this.print(renderPayment(payment, await fetchPrecisions(client)))
      this.print(renderEscrowRelease(payment))
    }
    return payment
  }
}
