import { Args, Flags } from '@oclif/core'
import type { CrossChainQuote } from '../../src/client/types.js'
import { ApiCommand } from '../../src/cli/base-command.js'
import { terminalQr } from '../../src/cli/output.js'
import { qrFlag, wantsQr } from '../../src/cli/qr-flag.js'
import { renderQuote } from '../../src/cli/render/cross-chain.js'

export default class PaymentsQuote extends ApiCommand<typeof PaymentsQuote> {
  static override args = {
    id: Args.string({ description: 'Payment id (pt_…)', required: true }),
  }

  static override summary = 'Quote paying a payment from another chain through the simulated bridge'
  static override description =
    'Prints the deposit address on the origin chain, what to send there (bridge fee included) and the USDC that arrives. The supported chains and tokens: paybox chains.'
  static override examples = [
    '<%= config.bin %> <%= command.id %> pt_0194… --origin-chain base --origin-token USDC --refund-address 0x52908400098527886E0F7030069857D2E4169EE7',
    '<%= config.bin %> <%= command.id %> pt_0194… --origin-chain solana --origin-token SOL --refund-address <base58> --json',
  ]

  static override flags = {
    'origin-chain': Flags.string({ description: 'ethereum, base, arbitrum, polygon or solana (paybox chains lists them)', required: true }),
    'origin-token': Flags.string({ description: 'Token sent on the origin chain, e.g. USDC, USDT, ETH, SOL', required: true }),
    'refund-address': Flags.string({ description: 'Address on the origin chain for refunds', required: true }),
    qr: qrFlag('the deposit address'),
  }

  public async run(): Promise<CrossChainQuote> {
    const quote = await this.client().crossChain.quote(this.args.id, {
      originChain: this.flags['origin-chain'],
      originToken: this.flags['origin-token'],
      refundAddress: this.flags['refund-address'],
    })
    if (!this.jsonEnabled()) {
      this.print(renderQuote(quote))
      if (wantsQr(this.flags.qr)) this.print(await terminalQr(quote.depositAddress))
    }
    return quote
  }
}
