import { Args } from '@oclif/core'
import type { Invoice } from '../../src/client/types.js'
import { ApiCommand } from '../../src/cli/base-command.js'
import { findInvoice } from '../../src/cli/invoice-lookup.js'
import { terminalQr } from '../../src/cli/output.js'
import { qrFlag, wantsQr } from '../../src/cli/qr-flag.js'
import { renderInvoice } from '../../src/cli/render/invoices.js'
import { fetchPrecisions, isPayable } from '../../src/cli/render/payments.js'

export default class InvoicesGet extends ApiCommand<typeof InvoicesGet> {
  static override args = {
    id: Args.string({ description: 'Invoice id, or its number (INV-0001)', required: true }),
  }

  static override summary = 'Show one invoice, with the link and QR code its customer pays it with'
  static override examples = [
    '<%= config.bin %> <%= command.id %> 3f0c…',
    '<%= config.bin %> <%= command.id %> INV-0001',
    '<%= config.bin %> <%= command.id %> 3f0c… --json',
  ]
  static override flags = {
    qr: qrFlag('the wallet payment URI of an unpaid invoice'),
  }

  public async run(): Promise<Invoice> {
    const client = this.client()
    const invoice = await findInvoice(client, this.args.id)
    if (!this.jsonEnabled()) {
      const [payment, precisions] = await Promise.all([client.payments.get(invoice.payment_id), fetchPrecisions(client)])
      this.print(renderInvoice(invoice, precisions, payment))
      if (isPayable(payment) && wantsQr(this.flags.qr)) this.print(await terminalQr(payment.qrCode))
    }
    return invoice
  }
}
