import { Args } from '@oclif/core'
import type { SandboxMerchant } from '../../src/client/types.js'
import { ApiCommand } from '../../src/cli/base-command.js'
import { renderRotatedSecret } from '../../src/cli/render/webhooks.js'
import { updateCopiesOfSecret, type RotatedSecretCopies } from '../../src/cli/rotated-secret.js'

export interface RotateSecretResult extends RotatedSecretCopies {
  merchant: SandboxMerchant
}

export default class MerchantsRotateSecret extends ApiCommand<typeof MerchantsRotateSecret> {
  static override args = {
    merchantId: Args.string({ description: 'Merchant id (see paybox sandbox status)', required: true }),
  }

  static override summary = 'Give a merchant a new API secret; the old one stops working at once (needs the admin token)'
  static override description =
    "Requests and webhooks are signed with the new secret from now on, resends included. If the local sandbox's state file " +
    'holds this merchant, it is updated so that commands using it keep working; profiles holding the old secret are named, not changed.'

  static override examples = ['<%= config.bin %> <%= command.id %> 0b6e…', '<%= config.bin %> <%= command.id %> 0b6e… --json']

  public async run(): Promise<RotateSecretResult> {
    const connection = this.connection()
    const merchant = await this.adminClient(connection).sandbox.rotateSecret(this.args.merchantId)
    const copies = updateCopiesOfSecret(merchant, connection.baseUrl)
    this.print(renderRotatedSecret(merchant))
    if (copies.updatedStateFile) this.notice(`Updated the local sandbox's state file (${copies.updatedStateFile}) with the new secret.`)
    for (const profile of copies.staleProfiles) {
      this.notice(
        `Profile "${profile}" still holds the old secret; update it with: paybox config set apiSecret ${merchant.apiSecret} --profile ${profile}`,
      )
    }
    if (copies.staleEnvironment) this.notice('PAYBOX_API_SECRET still holds the old secret.')
    return { merchant, ...copies }
  }
}
