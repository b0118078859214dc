import { Flags } from '@oclif/core'
import { INVOICE_STATUSES, type Invoice, type InvoiceStatus, type Page } from '../../src/client/types.js'
import { ApiCommand } from '../../src/cli/base-command.js'
import { renderInvoicePage } from '../../src/cli/render/invoices.js'
import { fetchPrecisions } from '../../src/cli/render/payments.js'

// The words people use for a voided invoice (invoices cancel voids it): accepted, and said what they list.
const STATUS_ALIASES: Readonly<Record<string, InvoiceStatus>> = { canceled: 'voided', cancelled: 'voided' }

export default class InvoicesList extends ApiCommand<typeof InvoicesList> {
  static override summary = 'List invoices, newest first'
  static override examples = [
    '<%= config.bin %> <%= command.id %>',
    '<%= config.bin %> <%= command.id %> --status overdue',
    '<%= config.bin %> <%= command.id %> --page 2 --limit 50 --json',
  ]

  static override flags = {
    status: Flags.string({
      description: 'Only invoices with this status (canceled and cancelled mean voided)',
      options: [...INVOICE_STATUSES, ...Object.keys(STATUS_ALIASES)],
    }),
    page: Flags.integer({ description: 'Page number', default: 1, min: 1 }),
    limit: Flags.integer({ description: 'Invoices per page (1–100)', default: 20, min: 1, max: 100 }),
  }

  public async run(): Promise<Page<Invoice>> {
    const { flags } = this
    const client = this.client()
    const alias = flags.status === undefined ? undefined : STATUS_ALIASES[flags.status]
    if (alias !== undefined) this.notice(`Note: --status ${flags.status} lists ${alias} invoices (a canceled invoice is voided in paybox)`)
    const status = (alias ?? flags.status) as InvoiceStatus | undefined
    const page = await client.invoices.list({ status, page: flags.page, limit: flags.limit })
    if (!this.jsonEnabled()) this.print(renderInvoicePage(page, await fetchPrecisions(client)))
    return page
  }
}
