import { Flags } from '@oclif/core'
import { BaseCommand } from '../../src/cli/base-command.js'
import { table } from '../../src/cli/output.js'
import { configFile } from '../../src/config/paths.js'
import { loadConfig, maskSecret, PROFILE_KEYS, SECRET_KEYS, type Profile } from '../../src/config/profiles.js'

export default class ConfigList extends BaseCommand<typeof ConfigList> {
  static override summary = 'List profiles and their settings (secrets masked)'
  static override examples = ['<%= config.bin %> <%= command.id %>', '<%= config.bin %> <%= command.id %> --show-secrets --json']
  static override flags = {
    'show-secrets': Flags.boolean({ description: 'Show secrets in full' }),
  }

  public async run(): Promise<{ file: string; profiles: Record<string, Profile> }> {
    const { profiles } = loadConfig()
    const shown: Record<string, Profile> = {}
    for (const [name, profile] of Object.entries(profiles)) {
      shown[name] = Object.fromEntries(
        Object.entries(profile).map(([key, value]) => [
          key,
          SECRET_KEYS.has(key as never) && !this.flags['show-secrets'] ? maskSecret(value) : value,
        ]),
      )
    }
    const rows = Object.entries(shown).map(([name, profile]) => [name, ...PROFILE_KEYS.map((key) => profile[key] ?? '')])
    this.print(rows.length === 0 ? `No profiles in ${configFile()} yet (see: paybox login).` : table(['Profile', ...PROFILE_KEYS], rows))
    return { file: configFile(), profiles: shown }
  }
}
