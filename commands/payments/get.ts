import { Args } from '@oclif/core'
import type { Payment } from '../../src/client/types.js'
import { ApiCommand } from '../../src/cli/base-command.js'
import { terminalQr } from '../../src/cli/output.js'
import { qrFlag, wantsQr } from '../../src/cli/qr-flag.js'
import { fetchPrecisions, isPayable, renderPayment } from '../../src/cli/render/payments.js'

export default class PaymentsGet extends ApiCommand<typeof PaymentsGet> {
  static override args = {
    id: Args.string({ description: 'Payment id (pt_…)', required: true }),
  }

  static override summary = 'Show one payment'
  static override examples = ['<%= config.bin %> <%= command.id %> pt_0194…', '<%= config.bin %> <%= command.id %> pt_0194… --json']
  static override flags = {
    qr: qrFlag('the wallet payment URI'),
  }

  public async run(): Promise<Payment> {
    const client = this.client()
    const payment = await client.payments.get(this.args.id)
    if (!this.jsonEnabled()) {
      this.print(renderPayment(payment, await fetchPrecisions(client)))
      if (isPayable(payment) && wantsQr(this.flags.qr)) this.print(await terminalQr(payment.qrCode))
    }
    return payment
  }
}
