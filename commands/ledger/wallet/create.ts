import { Flags } from '@oclif/core'
import type { SandboxWallet } from '../../../src/client/types.js'
import { ApiCommand } from '../../../src/cli/base-command.js'
import { renderCreatedWallet } from '../../../src/cli/render/ledger-wallet.js'

export default class LedgerWalletCreate extends ApiCommand<typeof LedgerWalletCreate> {
  static override summary = 'Create a funded customer wallet, secret included, to pay with real Stellar tools (needs the admin token)'
  static override description =
    'The wallet is a new account on the sandbox ledger with XLM for fees and USDC paid to it by the issuer. Use its secret with ' +
    "@stellar/stellar-sdk against the sandbox's Horizon API (printed below it) to pay a payment's qrCode."

  static override examples = [
    '<%= config.bin %> <%= command.id %>',
    '<%= config.bin %> <%= command.id %> --usdc 250 --xlm 100 --json',
    '<%= config.bin %> <%= command.id %> --no-trustline',
    '<%= config.bin %> <%= command.id %> --usdc 100 --usdc-limit 150',
  ]

  static override flags = {
    usdc: Flags.string({ description: 'USDC the issuer pays the wallet, 0–1000000 (default 100)' }),
    xlm: Flags.string({ description: 'XLM the account starts with, 1–1000000 (default 10000)' }),
    trustline: Flags.boolean({
      description:
        'Give the wallet a USDC trustline; --no-trustline makes one without (USDC paid from or to it fails: op_src_no_trust, op_no_trust)',
      default: true,
      allowNo: true,
    }),
    'usdc-limit': Flags.string({ description: "The USDC trustline's limit (a payment past it fails: op_line_full; default the largest)" }),
  }

  public async run(): Promise<SandboxWallet> {
    const { flags } = this
    const wallet = await this.adminClient().sandbox.createWallet({
      usdc: flags.usdc,
      xlm: flags.xlm,
      ...(flags.trustline ? {} : { trustline: false }),
      usdcLimit: flags['usdc-limit'],
    })
    this.print(renderCreatedWallet(wallet))
    return wallet
  }
}
