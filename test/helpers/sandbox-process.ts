// Runs `paybox sandbox start` as a separate process (from the sources) and waits for the JSON
// line it prints once it accepts connections: for tests that need a second process or a kill.
import { spawn, type ChildProcess } from 'node:child_process'
import path from 'node:path'
import readline from 'node:readline'
import { fileURLToPath } from 'node:url'
import { temporaryDir } from './sandbox.js'

export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..')
export const DEV_BIN = path.join(ROOT, 'bin/dev.js')

export interface SandboxBannerJson {
  baseUrl: string
  adminToken: string
  merchants: Array<{ id: string; name: string; apiKey: string; apiSecret: string; settlement_mode: string }>
}

export interface SandboxProcess {
  banner: SandboxBannerJson
  child: ChildProcess
  home: string
  /** Sends the signal and resolves with the exit code once the process has exited. */
  stop(signal?: NodeJS.Signals): Promise<number | null>
}

export async function spawnSandbox(args: string[], env: NodeJS.ProcessEnv = {}): Promise<SandboxProcess> {
  const home = env.PAYBOX_HOME ?? temporaryDir('paybox-home-')
  const child = spawn(process.execPath, [DEV_BIN, 'sandbox', 'start', '--json', ...args], {
    cwd: ROOT,
    env: { ...process.env, PAYBOX_HOME: home, PAYBOX_CONFIG_DIR: path.join(home, 'config'), ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  let stderr = ''
  child.stderr!.on('data', (chunk: Buffer) => (stderr += chunk.toString()))
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)))
  const firstLine = new Promise<string>((resolve, reject) => {
    const lines = readline.createInterface({ input: child.stdout! })
    lines.once('line', resolve)
    void exited.then((code) => reject(new Error(`sandbox exited with ${code} before it was ready: ${stderr}`)))
  })
  const banner = JSON.parse(await firstLine) as SandboxBannerJson
  return {
    banner,
    child,
    home,
    stop: async (signal = 'SIGTERM') => {
      if (child.exitCode === null && child.signalCode === null) child.kill(signal)
      return exited
    },
  }
}
