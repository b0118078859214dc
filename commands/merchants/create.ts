import { Flags } from '@oclif/core'
import type { SandboxMerchant } from '../../src/client/types.js'
import { ApiCommand } from '../../src/cli/base-command.js'
import { renderCreatedMerchant } from '../../src/cli/render/merchants.js'
import { SETTLEMENT_MODES } from '../../src/api/enumerations.js'

export default class MerchantsCreate extends ApiCommand<typeof MerchantsCreate> {
  static override summary = 'Create a merchant with fresh API keys and a funded settlement account (needs the admin token)'
  static override description =
    "A direct merchant is paid into its own settlement account; an escrow merchant's payments fund escrow orders, released " +
    'to their payee less the platform fee (--escrow-fee-bps, the default of its orders). Prints the new keys and how to use them.'

  static override examples = [
    '<%= config.bin %> <%= command.id %> --name "Corner Shop" --settlement-mode direct',
    '<%= config.bin %> <%= command.id %> --name "Market" --settlement-mode escrow --escrow-fee-bps 250 --json',
  ]

  static override flags = {
    name: Flags.string({ description: 'Merchant name, shown to its customers', required: true }),
    'settlement-mode': Flags.string({ description: 'How its payments settle', options: [...SETTLEMENT_MODES], required: true }),
    'escrow-fee-bps': Flags.integer({
      description: 'Escrow merchants: default platform fee of its orders, basis points (default 0)',
      min: 0,
      max: 10_000,
    }),
  }

  public async run(): Promise<SandboxMerchant> {
    const { flags } = this
    const settlementMode = flags['settlement-mode'] as SandboxMerchant['settlement_mode']
    // A blank name and a fee for a direct merchant are refused by the sandbox, which owns those rules.
    const connection = this.connection()
    const merchant = await this.adminClient(connection).sandbox.createMerchant({
      name: flags.name,
      settlement_mode: settlementMode,
      escrow_fee_bps: flags['escrow-fee-bps'],
    })
    this.print(renderCreatedMerchant(merchant, connection.baseUrl))
    return merchant
  }
}
