// Which sandbox or API the CLI talks to, and as whom: each setting from flags, else PAYBOX_*, else the
// profile, else the local sandbox's state file, else the default base URL.
import { UserError } from '../user-error.js'
import { DEFAULT_PROFILE, loadConfig, type Profile, type ProfileKey } from './profiles.js'
import { defaultMerchant, readLocalSandbox, sameOrigin } from './local-sandbox.js'

export const DEFAULT_BASE_URL = 'http://127.0.0.1:4242'

export const ENV_VARS: Record<ProfileKey | 'profile', string> = {
  baseUrl: 'PAYBOX_BASE_URL',
  apiKey: 'PAYBOX_API_KEY',
  apiSecret: 'PAYBOX_API_SECRET',
  adminToken: 'PAYBOX_ADMIN_TOKEN',
  profile: 'PAYBOX_PROFILE',
}

export interface ConnectionFlags extends Profile {
  profile?: string
}

export interface Connection extends Profile {
  baseUrl: string
  profile: string
}

export function resolveConnection(flags: ConnectionFlags, env: NodeJS.ProcessEnv = process.env): Connection {
  const profileName = flags.profile ?? env[ENV_VARS.profile] ?? DEFAULT_PROFILE
  const config = loadConfig(env)
  const profile = config.profiles[profileName]
  if (!profile && (flags.profile !== undefined || env[ENV_VARS.profile] !== undefined)) {
    throw new UserError(`No profile named "${profileName}"`, 'see: paybox config list')
  }
  const fromEnv: Profile = {
    baseUrl: env[ENV_VARS.baseUrl],
    apiKey: env[ENV_VARS.apiKey],
    apiSecret: env[ENV_VARS.apiSecret],
    adminToken: env[ENV_VARS.adminToken],
  }
  const pick = (key: ProfileKey): string | undefined => flags[key] ?? (fromEnv[key] || undefined) ?? profile?.[key]
  const baseUrl = pick('baseUrl')
  const connection: Connection = {
    profile: profileName,
    baseUrl: baseUrl ?? DEFAULT_BASE_URL,
    apiKey: pick('apiKey'),
    apiSecret: pick('apiSecret'),
    adminToken: pick('adminToken'),
  }
  // Fall back to the local sandbox's keys only when talking to that sandbox.
  const local = readLocalSandbox(env)
  if (local && (baseUrl === undefined || sameOrigin(baseUrl, local.baseUrl))) {
    connection.baseUrl = baseUrl ?? local.baseUrl
    connection.adminToken ??= local.adminToken
    const merchant = defaultMerchant(local.merchants)
    if (merchant && connection.apiKey === undefined && connection.apiSecret === undefined) {
      connection.apiKey = merchant.apiKey
      connection.apiSecret = merchant.apiSecret
    }
  }
  return connection
}
