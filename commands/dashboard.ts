import { Flags } from '@oclif/core'
import { ApiCommand } from '../src/cli/base-command.js'
import { openInBrowser, whyNotOpen } from '../src/cli/browser-opener.js'

export interface DashboardResult {
  url: string
}

export default class Dashboard extends ApiCommand<typeof Dashboard> {
  static override summary = "Open the sandbox's dashboard in the browser, signed in as the admin (needs the admin token)"
  static override description =
    'Gets a one-time sign-in link (it works once, for five minutes) and opens it with the system browser. The link is ' +
    'printed instead with --no-open, under CI, on a machine without a display, and with --json (which prints {url}).'

  static override examples = [
    '<%= config.bin %> <%= command.id %>',
    '<%= config.bin %> <%= command.id %> --no-open',
    '<%= config.bin %> <%= command.id %> --json',
  ]

  static override flags = {
    open: Flags.boolean({ allowNo: true, default: true, description: 'Open the link in the browser (--no-open prints it only)' }),
  }

  public async run(): Promise<DashboardResult> {
    const link = await this.adminClient().sandbox.dashboardLink()
    const result = { url: link.url }
    if (this.jsonEnabled()) return result
    const reason = this.flags.open ? whyNotOpen() : '--no-open'
    if (reason === undefined && (await openInBrowser(link.url))) {
      this.notice('Opened the dashboard in your browser; the link works once:')
    } else if (reason === undefined) {
      this.notice('Could not start a browser; open this link (it works once, for five minutes):')
    } else {
      this.notice(`Not opening a browser (${reason}); open this link (it works once, for five minutes):`)
    }
    this.print(link.url)
    return result
  }
}
