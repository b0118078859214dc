import type { Currency } from '../src/client/types.js'
import { ApiCommand } from '../src/cli/base-command.js'
import { table } from '../src/cli/output.js'

export default class Currencies extends ApiCommand<typeof Currencies> {
  static override summary = 'List the supported pricing currencies'
  static override examples = ['<%= config.bin %> <%= command.id %>', '<%= config.bin %> <%= command.id %> --json']

  public async run(): Promise<{ items: Currency[] }> {
    const result = await this.client().currencies.list()
    this.print(
      table(
        ['Code', 'Name', 'Symbol', 'Precision'],
        result.items.map((c) => [c.code, c.name, c.symbol, c.precision]),
      ),
    )
    return result
  }
}
