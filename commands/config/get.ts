import { Args, Flags } from '@oclif/core'
import { BaseCommand } from '../../src/cli/base-command.js'
import { UserError } from '../../src/user-error.js'
import { DEFAULT_PROFILE, isProfileKey, loadConfig, PROFILE_KEYS } from '../../src/config/profiles.js'

export default class ConfigGet extends BaseCommand<typeof ConfigGet> {
  static override args = {
    key: Args.string({ description: `Setting: ${PROFILE_KEYS.join(', ')}`, required: true }),
  }

  static override summary = 'Print one setting of a profile'
  static override examples = ['<%= config.bin %> <%= command.id %> baseUrl', '<%= config.bin %> <%= command.id %> apiKey --profile staging']
  static override flags = {
    profile: Flags.string({ description: 'Profile to read', default: DEFAULT_PROFILE, env: 'PAYBOX_PROFILE' }),
  }

  public async run(): Promise<{ profile: string; key: string; value: string | null }> {
    const { key } = this.args
    if (!isProfileKey(key)) throw new UserError(`Unknown setting "${key}"`, `one of ${PROFILE_KEYS.join(', ')}`)
    const value = loadConfig().profiles[this.flags.profile]?.[key]
    if (value === undefined)
      throw new UserError(`Profile "${this.flags.profile}" has no ${key}`, `set it with: paybox config set ${key} <value>`)
    this.print(value)
    return { profile: this.flags.profile, key, value }
  }
}
