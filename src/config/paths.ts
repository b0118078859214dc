// Where paybox keeps the sandbox's data and the CLI's profiles; PAYBOX_HOME and PAYBOX_CONFIG_DIR
// move them (tests point both at temporary folders).
import os from 'node:os'
import path from 'node:path'

export function dataDir(env: NodeJS.ProcessEnv = process.env): string {
  return env.PAYBOX_HOME ?? path.join(os.homedir(), '.paybox')
}

export function configDir(env: NodeJS.ProcessEnv = process.env): string {
  if (env.PAYBOX_CONFIG_DIR) return env.PAYBOX_CONFIG_DIR
  const base = env.XDG_CONFIG_HOME ?? path.join(os.homedir(), '.config')
  return path.join(base, 'paybox')
}

export const defaultDatabaseFile = (env?: NodeJS.ProcessEnv): string => path.join(dataDir(env), 'sandbox.db')
export const sandboxStateFile = (env?: NodeJS.ProcessEnv): string => path.join(dataDir(env), 'sandbox.json')
/** The pid of the sandbox started from this data folder, while it runs. */
export const sandboxPidFile = (env?: NodeJS.ProcessEnv): string => path.join(dataDir(env), 'sandbox.pid')
/** What a sandbox started with --detach writes to stdout and stderr. */
export const sandboxLogFile = (env?: NodeJS.ProcessEnv): string => path.join(dataDir(env), 'sandbox.log')
/** Snapshots of the sandbox's state (paybox sandbox snapshot save). */
export const snapshotsDir = (env?: NodeJS.ProcessEnv): string => path.join(dataDir(env), 'snapshots')
export const configFile = (env?: NodeJS.ProcessEnv): string => path.join(configDir(env), 'config.json')
