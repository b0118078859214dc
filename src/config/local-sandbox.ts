// The state file a running `paybox sandbox start` leaves in the data folder (mode 0600), so
// that the CLI on the same machine finds its URL, admin token and merchants' keys.
import fs from 'node:fs'
import type { SettlementMode } from '../api/enumerations.js'
import { sandboxStateFile } from './paths.js'
import { readJsonFile, writeSecretJson } from './secret-file.js'

export interface LocalSandboxMerchant {
  id: string
  name: string
  apiKey: string
  apiSecret: string
  settlement_mode: SettlementMode
}

export interface LocalSandboxState {
  baseUrl: string
  adminToken: string
  pid: number
  merchants: LocalSandboxMerchant[]
}

export function readLocalSandbox(env?: NodeJS.ProcessEnv): LocalSandboxState | undefined {
  const state = readJsonFile(sandboxStateFile(env)) as LocalSandboxState | undefined
  if (!state || typeof state.baseUrl !== 'string' || !Array.isArray(state.merchants)) return undefined
  return state
}

export function writeLocalSandbox(state: LocalSandboxState, env?: NodeJS.ProcessEnv): void {
  writeSecretJson(sandboxStateFile(env), state)
}

/** Removes the state file if it still describes this process's sandbox. */
export function clearLocalSandbox(pid: number, env?: NodeJS.ProcessEnv): void {
  if (readLocalSandbox(env)?.pid === pid) fs.rmSync(sandboxStateFile(env), { force: true })
}

/** After a restore or reset the merchants (and keys) are the new state's; the file, if it described `baseUrl`'s sandbox. */
export function updateLocalSandboxMerchants(
  baseUrl: string,
  merchants: LocalSandboxMerchant[],
  env?: NodeJS.ProcessEnv,
): string | undefined {
  const state = readLocalSandbox(env)
  if (!state || !sameOrigin(state.baseUrl, baseUrl)) return undefined
  writeLocalSandbox({ ...state, merchants }, env)
  return sandboxStateFile(env)
}

/** The merchant the CLI acts as unless told otherwise: the first direct one, else the first. */
export function defaultMerchant<M extends { settlement_mode: string }>(merchants: M[]): M | undefined {
  return merchants.find((m) => m.settlement_mode === 'direct') ?? merchants[0]
}

/** Whether two URLs name the same server (scheme, host and port); false if either is not a URL. */
export function sameOrigin(a: string, b: string): boolean {
  return URL.canParse(a) && URL.canParse(b) && new URL(a).origin === new URL(b).origin
}
