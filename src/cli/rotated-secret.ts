// After `merchants rotate-secret`: the local sandbox's state file mirrors the sandbox, so it is
// updated; profiles are the user's settings, so they are only named.
import { readLocalSandbox, sameOrigin, writeLocalSandbox } from '../config/local-sandbox.js'
import { sandboxStateFile } from '../config/paths.js'
import { loadConfig } from '../config/profiles.js'
import type { SandboxMerchant } from '../client/types.js'

export interface RotatedSecretCopies {
  /** The state file of the local sandbox, if it held this merchant and now has the new secret. */
  updatedStateFile?: string
  /** Profiles that hold this merchant's key with the old secret. */
  staleProfiles: string[]
  /** PAYBOX_API_KEY names this merchant and PAYBOX_API_SECRET holds the old secret. */
  staleEnvironment: boolean
}

export function updateCopiesOfSecret(
  merchant: SandboxMerchant,
  baseUrl: string,
  env: NodeJS.ProcessEnv = process.env,
): RotatedSecretCopies {
  const copies: RotatedSecretCopies = {
    staleProfiles: [],
    staleEnvironment:
      env.PAYBOX_API_KEY === merchant.apiKey && Boolean(env.PAYBOX_API_SECRET) && env.PAYBOX_API_SECRET !== merchant.apiSecret,
  }
  const local = readLocalSandbox(env)
  if (local && sameOrigin(local.baseUrl, baseUrl) && local.merchants.some((m) => m.id === merchant.id)) {
    const merchants = local.merchants.map((m) => (m.id === merchant.id ? { ...m, apiSecret: merchant.apiSecret } : m))
    writeLocalSandbox({ ...local, merchants }, env)
    copies.updatedStateFile = sandboxStateFile(env)
  }
  for (const [name, profile] of Object.entries(loadConfig(env).profiles)) {
    const sameServer = profile.baseUrl === undefined || sameOrigin(profile.baseUrl, baseUrl)
    if (sameServer && profile.apiKey === merchant.apiKey && profile.apiSecret !== merchant.apiSecret) copies.staleProfiles.push(name)
  }
  return copies
}
