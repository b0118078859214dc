import { Args, Flags } from '@oclif/core'
import { BaseCommand } from '../../src/cli/base-command.js'
import { UserError } from '../../src/user-error.js'
import { configFile } from '../../src/config/paths.js'
import { DEFAULT_PROFILE, isProfileKey, loadConfig, PROFILE_KEYS, saveProfile } from '../../src/config/profiles.js'

export default class ConfigSet extends BaseCommand<typeof ConfigSet> {
  static override args = {
    key: Args.string({ description: `Setting: ${PROFILE_KEYS.join(', ')}`, required: true }),
    value: Args.string({ description: 'New value', required: true }),
  }

  static override summary = 'Change one setting of a profile'
  static override examples = [
    '<%= config.bin %> <%= command.id %> baseUrl http://127.0.0.1:4242',
    '<%= config.bin %> <%= command.id %> apiKey pk_test_… --profile staging',
  ]

  static override flags = {
    profile: Flags.string({ description: 'Profile to change (created if new)', default: DEFAULT_PROFILE, env: 'PAYBOX_PROFILE' }),
  }

  public async run(): Promise<{ profile: string; key: string; file: string }> {
    const { key, value } = this.args
    if (!isProfileKey(key)) throw new UserError(`Unknown setting "${key}"`, `one of ${PROFILE_KEYS.join(', ')}`)
    if (key === 'baseUrl' && !(URL.canParse(value) && /^https?:$/.test(new URL(value).protocol))) {
      throw new UserError(`baseUrl must be an absolute http(s) URL, got "${value}"`)
    }
    const profile = loadConfig().profiles[this.flags.profile] ?? {}
    saveProfile(this.flags.profile, { ...profile, [key]: value })
    this.print(`Set ${key} in profile "${this.flags.profile}" (${configFile()}).`)
    return { profile: this.flags.profile, key, file: configFile() }
  }
}
