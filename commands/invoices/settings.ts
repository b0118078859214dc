import { Flags } from '@oclif/core'
import type { InvoiceSettings } from '../../src/client/types.js'
import { ApiCommand } from '../../src/cli/base-command.js'
import { renderInvoiceSettings } from '../../src/cli/render/invoices.js'
import { sendsField } from '../../src/cli/field-flags.js'

export default class InvoicesSettings extends ApiCommand<typeof InvoicesSettings> {
  static override summary = 'Show or change how invoices are numbered'
  static override description =
    'Shows the prefix, the next number and the number the next invoice would get now. With --prefix or --next-number it changes ' +
    'them first. {year} in the prefix becomes the UTC year at issue; the number only moves forward.'

  static override examples = [
    '<%= config.bin %> <%= command.id %>',
    '<%= config.bin %> <%= command.id %> --prefix "INV-{year}-" --next-number 100',
  ]

  static override flags = {
    prefix: sendsField(
      'invoice_prefix',
      Flags.string({
        description: 'Prefix of generated numbers: letters, digits, space, - _ . / and {year} (at most 24 characters)',
      }),
    ),
    'next-number': Flags.integer({ description: 'The next generated number (at least the current one)', min: 1 }),
  }

  public async run(): Promise<InvoiceSettings> {
    const { flags } = this
    const invoices = this.client().invoices
    const settings =
      flags.prefix === undefined && flags['next-number'] === undefined
        ? await invoices.settings()
        : await invoices.updateSettings({ invoice_prefix: flags.prefix, next_number: flags['next-number'] })
    this.print(renderInvoiceSettings(settings))
    return settings
  }
}
