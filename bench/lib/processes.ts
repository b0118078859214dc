// Servers under test run as their own processes, never inside the load generator: each prints
// one JSON line once it accepts connections, and the time to that line is its start-to-ready.
import { spawn, type ChildProcess } from 'node:child_process'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import readline from 'node:readline'
import { fileURLToPath } from 'node:url'
import type { SandboxBanner } from '../../src/cli/render/sandbox.js'

export const ROOT = fileURLToPath(new URL('../..', import.meta.url))

export interface ServerProcess<T> {
  /** The JSON line the server printed when ready. */
  banner: T
  child: ChildProcess
  /** From spawn to the ready line, in ms. */
  readyMs: number
  /** Resident memory now, from /proc; undefined where there is no /proc. */
  rssBytes(): number | undefined
  /** SIGTERM, then SIGKILL if it has not exited within 10 s. */
  stop(): Promise<void>
}

export function temporaryDir(prefix: string): string {
  return fs.mkdtempSync(path.join(os.tmpdir(), prefix))
}

export async function spawnServer<T>(args: string[], env: Record<string, string> = {}): Promise<ServerProcess<T>> {
  const started = performance.now()
  const child = spawn(process.execPath, args, { cwd: ROOT, env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] })
  let stderr = ''
  child.stderr!.on('data', (chunk: Buffer) => {
    stderr = (stderr + chunk.toString()).slice(-4000)
  })
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()))
  const lines = readline.createInterface({ input: child.stdout! })
  const first = await new Promise<string>((resolve, reject) => {
    lines.once('line', resolve)
    child.once('exit', (code) => reject(new Error(`${args.join(' ')} exited (${code}) before it was ready:\n${stderr}`)))
  })
  const readyMs = performance.now() - started
  lines.on('line', () => {}) // keep draining stdout
  return {
    banner: JSON.parse(first) as T,
    child,
    readyMs,
    rssBytes: () => rssOf(child.pid),
    stop: async () => {
      if (child.exitCode !== null || child.signalCode !== null) return
      child.kill('SIGTERM')
      const timer = setTimeout(() => child.kill('SIGKILL'), 10_000)
      await exited
      clearTimeout(timer)
    },
  }
}

function rssOf(pid: number | undefined): number | undefined {
  try {
    const status = fs.readFileSync(`/proc/${pid}/status`, 'utf8')
    const kb = /^VmRSS:\s+(\d+) kB/m.exec(status)?.[1]
    return kb === undefined ? undefined : Number(kb) * 1024
  } catch {
    return undefined
  }
}

/** What `sandbox start --json` prints when ready (the CLI's own type). */
export type { SandboxBanner } from '../../src/cli/render/sandbox.js'

/** The real product: the built CLI's `sandbox start`, with its own PAYBOX_HOME. */
export function spawnSandbox(dbFile: string, extraArgs: string[] = []): Promise<ServerProcess<SandboxBanner>> {
  const home = temporaryDir('paybox-bench-home-')
  return spawnServer<SandboxBanner>(['bin/run.js', 'sandbox', 'start', '--port', '0', '--json', '--db', dbFile, ...extraArgs], {
    PAYBOX_HOME: home,
    PAYBOX_CONFIG_DIR: path.join(home, 'config'),
  })
}

export function directMerchant(banner: SandboxBanner): SandboxBanner['merchants'][number] {
  const merchant = banner.merchants.find((m) => m.settlement_mode === 'direct')
  if (!merchant) throw new Error('The sandbox has no direct merchant')
  return merchant
}
