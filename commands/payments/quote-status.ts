import { Args } from '@oclif/core'
import type { CrossChainQuote } from '../../src/client/types.js'
import { ApiCommand } from '../../src/cli/base-command.js'
import { renderQuoteStatus } from '../../src/cli/render/cross-chain.js'

export default class PaymentsQuoteStatus extends ApiCommand<typeof PaymentsQuoteStatus> {
  static override args = {
    quoteId: Args.string({ description: 'Cross-chain quote id (qt_…)', required: true }),
  }

  static override summary = "Show a cross-chain quote's bridge order: status, amounts in, out and refunded, transactions on both chains"
  static override description =
    'Statuses follow NEAR Intents 1Click: PENDING_DEPOSIT, INCOMPLETE_DEPOSIT, KNOWN_DEPOSIT_TX, PROCESSING, SUCCESS, REFUNDED, FAILED, ' +
    'and EXPIRED for a quote whose deadline passed with nothing deposited. See docs/bridge.md.'

  static override examples = ['<%= config.bin %> <%= command.id %> qt_0194…', '<%= config.bin %> <%= command.id %> qt_0194… --json']

  public async run(): Promise<CrossChainQuote> {
    const quote = await this.client().crossChain.status(this.args.quoteId)
    if (!this.jsonEnabled()) this.print(renderQuoteStatus(quote))
    return quote
  }
}
