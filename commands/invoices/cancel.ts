import { Args, Flags } from '@oclif/core'
import type { Invoice } from '../../src/client/types.js'
import { ApiCommand } from '../../src/cli/base-command.js'
import { UserError } from '../../src/user-error.js'
import { findInvoice } from '../../src/cli/invoice-lookup.js'
import { askConfirmOrCancel, canPrompt } from '../../src/cli/prompts.js'
import { renderInvoice, voidQuestion } from '../../src/cli/render/invoices.js'
import { fetchPrecisions, type Precisions } from '../../src/cli/render/payments.js'

export default class InvoicesCancel extends ApiCommand<typeof InvoicesCancel> {
  static override args = {
    id: Args.string({ description: 'Invoice id, or its number (INV-0001)', required: true }),
  }

  static override summary = 'Void an unpaid invoice; its payment link expires'
  static override description =
    'Asks first on a terminal; --yes skips the question, and is needed without a terminal, in CI and with --json. ' +
    'A paid invoice cannot be voided: refund its payment instead (paybox payments refund).'

  static override examples = ['<%= config.bin %> <%= command.id %> 3f0c…', '<%= config.bin %> <%= command.id %> INV-0001 --yes --json']

  static override flags = {
    yes: Flags.boolean({ char: 'y', description: 'Void without asking' }),
  }

  public async run(): Promise<Invoice> {
    const { args, flags } = this
    const client = this.client()
    // Asked once, for the question and for the answer.
    let precisions: Promise<Precisions> | undefined
    const precisionsOnce = () => (precisions ??= fetchPrecisions(client))
    if (!flags.yes && (!canPrompt() || this.jsonEnabled())) {
      throw new UserError(
        `Not voiding invoice ${args.id} without confirmation`,
        'pass --yes; paybox does not ask without a terminal, when CI is set, or with --json',
      )
    }
    const invoice = await findInvoice(client, args.id)
    if (!flags.yes) {
      const [payment, known] = await Promise.all([client.payments.get(invoice.payment_id), precisionsOnce()])
      const question = voidQuestion(invoice, payment, known)
      if (!(await askConfirmOrCancel(question, `Canceled; invoice ${invoice.invoice_number} was not voided`))) {
        throw new UserError(`Invoice ${invoice.invoice_number} was not voided`)
      }
    }
    const voided = await client.invoices.cancel(invoice.id)
    if (!this.jsonEnabled()) {
      const [payment, known] = await Promise.all([client.payments.get(voided.payment_id), precisionsOnce()])
      this.print(renderInvoice(voided, known, payment))
    }
    return voided
  }
}
