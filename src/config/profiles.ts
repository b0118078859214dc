// CLI profiles: named sets of connection settings in the config file (mode 0600).
import { configFile } from './paths.js'
import { readJsonFile, writeSecretJson } from './secret-file.js'

export const PROFILE_KEYS = ['baseUrl', 'apiKey', 'apiSecret', 'adminToken'] as const
export type ProfileKey = (typeof PROFILE_KEYS)[number]
export type Profile = Partial<Record<ProfileKey, string>>

export const SECRET_KEYS: ReadonlySet<ProfileKey> = new Set(['apiSecret', 'adminToken'])
export const DEFAULT_PROFILE = 'default'

export interface ConfigFile {
  profiles: Record<string, Profile>
}

export function isProfileKey(key: string): key is ProfileKey {
  return (PROFILE_KEYS as readonly string[]).includes(key)
}

export function loadConfig(env?: NodeJS.ProcessEnv): ConfigFile {
  const raw = readJsonFile(configFile(env)) as Partial<ConfigFile> | undefined
  const profiles: Record<string, Profile> = {}
  for (const [name, profile] of Object.entries(raw?.profiles ?? {})) {
    profiles[name] = Object.fromEntries(
      Object.entries(profile ?? {}).filter(([key, value]) => isProfileKey(key) && typeof value === 'string'),
    )
  }
  return { profiles }
}

export function saveProfile(name: string, profile: Profile, env?: NodeJS.ProcessEnv): void {
  const config = loadConfig(env)
  config.profiles[name] = profile
  writeSecretJson(configFile(env), config)
}

/** "sk_test_…9f2c": enough to tell secrets apart, not enough to use one. */
export function maskSecret(value: string): string {
  return value.length <= 12 ? '••••' : `${value.slice(0, 8)}…${value.slice(-4)}`
}
