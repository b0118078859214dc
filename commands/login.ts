import { Flags } from '@oclif/core'
import { PayboxClient } from '../src/client/paybox-client.js'
import { BaseCommand } from '../src/cli/base-command.js'
import { UserError } from '../src/user-error.js'
import { askChoice, askSecret, askText, canPrompt } from '../src/cli/prompts.js'
import { DEFAULT_BASE_URL } from '../src/config/connection.js'
import { defaultMerchant, readLocalSandbox, type LocalSandboxState } from '../src/config/local-sandbox.js'
import { DEFAULT_PROFILE, maskSecret, saveProfile, type Profile } from '../src/config/profiles.js'

export interface LoginResult {
  profile: string
  baseUrl: string
  apiKey: string
}

export default class Login extends BaseCommand<typeof Login> {
  static override summary = 'Save API credentials as a profile'
  static override description =
    'Asks for the base URL and keys (or takes them from flags), checks them with a signed request, and saves them to a profile. ' +
    'With --from-sandbox it takes the keys of the sandbox running locally.'

  static override examples = [
    '<%= config.bin %> <%= command.id %>',
    '<%= config.bin %> <%= command.id %> --from-sandbox --merchant "Bazaar Marketplace" --profile escrow',
    '<%= config.bin %> <%= command.id %> --base-url http://127.0.0.1:4242 --api-key pk_test_… --api-secret sk_test_…',
  ]

  static override flags = {
    profile: Flags.string({ description: 'Profile to save to', default: DEFAULT_PROFILE }),
    'base-url': Flags.string({ description: 'API base URL' }),
    'api-key': Flags.string({ description: 'Merchant API key' }),
    'api-secret': Flags.string({ description: 'Merchant API secret' }),
    'from-sandbox': Flags.boolean({ description: 'Use the keys of the sandbox running locally', exclusive: ['api-key', 'api-secret'] }),
    merchant: Flags.string({
      description: 'With --from-sandbox: merchant name or id (default: the direct merchant)',
      dependsOn: ['from-sandbox'],
    }),
  }

  public async run(): Promise<LoginResult> {
    const profile = await this.chooseCredentials()
    const client = new PayboxClient({ baseUrl: profile.baseUrl!, apiKey: profile.apiKey, apiSecret: profile.apiSecret })
    await client.payments.list({ limit: 1 })
    saveProfile(this.flags.profile, profile)
    this.print(
      `Logged in to ${profile.baseUrl} as ${profile.apiKey} (${maskSecret(profile.apiSecret!)}); saved as profile "${this.flags.profile}".`,
    )
    return { profile: this.flags.profile, baseUrl: profile.baseUrl!, apiKey: profile.apiKey! }
  }

  private async chooseCredentials(): Promise<Profile> {
    const { flags } = this
    const local = readLocalSandbox()
    if (flags['from-sandbox']) {
      if (!local) throw new UserError('No local sandbox is running', 'start one with: paybox sandbox start')
      return fromSandbox(local, flags.merchant)
    }
    if (flags['api-key'] && flags['api-secret']) {
      return { baseUrl: flags['base-url'] ?? local?.baseUrl ?? DEFAULT_BASE_URL, apiKey: flags['api-key'], apiSecret: flags['api-secret'] }
    }
    if (!canPrompt()) {
      throw new UserError(
        'Missing --api-key and --api-secret',
        'pass both, or --from-sandbox; paybox does not prompt without a terminal or when CI is set',
      )
    }
    const baseUrl = flags['base-url'] ?? (await askText('API base URL', local?.baseUrl ?? DEFAULT_BASE_URL))
    if (local && new URL(local.baseUrl).origin === new URL(baseUrl).origin && !flags['api-key']) {
      const choice = await askChoice('Which merchant?', [
        ...local.merchants.map((m) => ({ name: `${m.name} (${m.settlement_mode})`, value: m.id })),
        { name: 'Enter keys by hand', value: '' },
      ])
      if (choice) return fromSandbox(local, choice)
    }
    return {
      baseUrl,
      apiKey: flags['api-key'] ?? (await askText('API key (pk_…)')),
      apiSecret: flags['api-secret'] ?? (await askSecret('API secret (sk_…)')),
    }
  }
}

function fromSandbox(local: LocalSandboxState, merchant: string | undefined): Profile {
  const chosen = merchant ? local.merchants.find((m) => m.id === merchant || m.name === merchant) : defaultMerchant(local.merchants)
  if (!chosen)
    throw new UserError(`The local sandbox has no merchant "${merchant}"`, `one of: ${local.merchants.map((m) => m.name).join(', ')}`)
  return { baseUrl: local.baseUrl, apiKey: chosen.apiKey, apiSecret: chosen.apiSecret, adminToken: local.adminToken }
}
