// Runs the real paybox CLI in tests: in-process through oclif from the sources (runCli), or as a
// child process for commands that keep running or must be seen from outside (spawnCli). Each run sees
// only the PAYBOX_* variables it is given, so a test's profiles and state live in its own folders.
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process'
import { once } from 'node:events'
import fs from 'node:fs'
import { Console } from 'node:console'
import path from 'node:path'
import readline from 'node:readline'
import { fileURLToPath } from 'node:url'
import { Config, run, settings } from '@oclif/core'
import { captureOutput } from '@oclif/test'
import { register } from 'tsx/esm/api'
import { expect } from 'vitest'
import { temporaryDir, type TestSandbox } from './sandbox.js'
import type { SettlementMode } from '../src/api/enumerations.js'

export const ROOT = fileURLToPath(new URL('..', import.meta.url))
const DEV_BIN = path.join(ROOT, 'bin', 'dev.js')

/** Variables the CLI reads that must never leak in from the developer's shell. */
const CONTROLLED_ENV = /^(PAYBOX_|CI$|NO_COLOR$|FORCE_COLOR$|XDG_CONFIG_HOME$)/

export type CliEnv = Record<string, string | undefined>

/** Fresh, empty PAYBOX_HOME and PAYBOX_CONFIG_DIR folders (the config folder does not exist yet). */
export function isolatedEnv(extra: CliEnv = {}): CliEnv & { PAYBOX_HOME: string; PAYBOX_CONFIG_DIR: string } {
  const dir = temporaryDir('paybox-cli-')
  return {
    PAYBOX_HOME: path.join(dir, 'home'),
    PAYBOX_CONFIG_DIR: path.join(dir, 'config'),
    CI: '1',
    ...extra,
  }
}

/** With the admin token too (pass PAYBOX_ADMIN_TOKEN: undefined in `extra` to leave it out). */
export function merchantEnv(sandbox: TestSandbox, mode: SettlementMode = 'direct', extra: CliEnv = {}): CliEnv {
  const merchant = sandbox.merchants.find((m) => m.settlement_mode === mode)
  if (!merchant) throw new Error(`the sandbox has no ${mode} merchant`)
  return isolatedEnv({
    PAYBOX_BASE_URL: sandbox.url,
    PAYBOX_API_KEY: merchant.apiKey,
    PAYBOX_API_SECRET: merchant.apiSecret,
    PAYBOX_ADMIN_TOKEN: sandbox.identity.adminToken,
    ...extra,
  })
}

export interface CliResult<T = unknown> {
  stdout: string
  stderr: string
  exitCode: number
  /** What run() returned (the command's result). */
  result?: T
  /** An error that escaped the command (oclif would print it and exit). */
  error?: Error
}

export const linesOf = (text: string): string[] => text.split('\n').filter((line) => line.trim() !== '')

let configPromise: Promise<Config> | undefined

/** oclif's Config for this package, with commands loaded from commands/index.ts (as bin/dev.js does). */
function loadConfig(): Promise<Config> {
  configPromise ??= (async () => {
    // oclif imports the command target with Node's own import(): let tsx compile the sources.
    register()
    settings.enableAutoTranspile = false
    const pjson = JSON.parse(fs.readFileSync(path.join(ROOT, 'package.json'), 'utf8'))
    pjson.oclif.commands.target = './commands/index.ts'
    for (const [event, target] of Object.entries<string>(pjson.oclif.hooks ?? {}))
      pjson.oclif.hooks[event] = target.replace(/^\.\/dist\/(.*)\.js$/, './$1.ts')
    return Config.load({ root: ROOT, pjson })
  })()
  return configPromise
}

function withEnv<T>(env: CliEnv, fn: () => Promise<T>): Promise<T> {
  const saved: CliEnv = {}
  for (const key of Object.keys(process.env)) {
    if (CONTROLLED_ENV.test(key)) {
      saved[key] = process.env[key]
      delete process.env[key]
    }
  }
  for (const [key, value] of Object.entries(env)) {
    if (!(key in saved)) saved[key] = process.env[key]
    if (value === undefined) delete process.env[key]
    else process.env[key] = value
  }
  return fn().finally(() => {
    for (const [key, value] of Object.entries(saved)) {
      if (value === undefined) delete process.env[key]
      else process.env[key] = value
    }
  })
}

/** argv goes to oclif as is (no shell splitting); output has ANSI codes stripped. */
export async function runCli<T = unknown>(argv: string[], env: CliEnv): Promise<CliResult<T>> {
  const config = await loadConfig()
  const previousExitCode = process.exitCode
  process.exitCode = undefined
  try {
    const captured = await withEnv(env, () =>
      captureOutput<T>(async () => {
        // oclif prints through console.*, which vitest replaces: put a plain one on process.stdout/stderr
        // (which captureOutput intercepts) for the duration of the command.
        const vitestConsole = globalThis.console
        globalThis.console = new Console({ stdout: process.stdout, stderr: process.stderr, colorMode: false })
        try {
          return await run(argv, config)
        } finally {
          globalThis.console = vitestConsole
        }
      }),
    )
    const escaped = captured.error as (Error & { oclif?: { exit?: number } }) | undefined
    const exitCode = escaped ? (escaped.oclif?.exit ?? 1) : Number(process.exitCode ?? 0)
    return { stdout: captured.stdout, stderr: captured.stderr, exitCode, result: captured.result, error: escaped }
  } finally {
    process.exitCode = previousExitCode
  }
}

/** The command failed the way the CLI promises: nothing on stdout, exactly `message` as one stderr line. */
export function expectOneLineFailure(result: CliResult, message: string, exitCode = 1): void {
  expect(result.error).toBeUndefined()
  expect(result.stdout).toBe('')
  expect(linesOf(result.stderr)).toHaveLength(1)
  expect(result.stderr).toBe(`Error: ${message}\n`)
  expect(result.exitCode).toBe(exitCode)
}

/** Runs a command with --json and parses stdout, which must be exactly one JSON document. */
export async function runCliJson<T>(argv: string[], env: CliEnv): Promise<CliResult<T> & { json: T }> {
  const result = await runCli<T>([...argv, '--json'], env)
  let json: T
  try {
    json = JSON.parse(result.stdout) as T
  } catch {
    throw new Error(
      `stdout of paybox ${argv.join(' ')} is not one JSON document (exit ${result.exitCode}):\n${result.stdout}\nstderr:\n${result.stderr}`,
    )
  }
  return { ...result, json }
}

export interface SpawnedCli {
  child: ChildProcessWithoutNullStreams
  /** Resolves with the first line on stdout; rejects if the process ends before printing one. */
  firstLine: Promise<string>
  /** Resolves with the exit code (or the signal's name) once the process has exited. */
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>
  /** Everything written to stderr so far. */
  stderr(): string
}

export interface SpawnOptions {
  /** Working folder (default: the repository). */
  cwd?: string
  /** The process's soft limit on open files (RLIMIT_NOFILE), set through the shell's ulimit. */
  fileLimit?: number
  /** The CLI entry to run (default bin/dev.js, the sources; bin/run.js runs the build). */
  entry?: string
}

/** Starts `node bin/dev.js <argv…>` (or `options.entry`) with only the given PAYBOX_* environment. */
export function spawnCli(argv: string[], env: CliEnv, options: SpawnOptions = {}): SpawnedCli {
  const childEnv: NodeJS.ProcessEnv = {}
  for (const [key, value] of Object.entries(process.env)) if (!CONTROLLED_ENV.test(key) && key !== 'NODE_OPTIONS') childEnv[key] = value
  // The PostgreSQL write mode under test (issue 25) reaches spawned replicas as it does in-process sandboxes.
  const serialWrites = process.env.PAYBOX_POSTGRES_SERIAL_WRITES
  if (serialWrites !== undefined) childEnv.PAYBOX_POSTGRES_SERIAL_WRITES = serialWrites
  for (const [key, value] of Object.entries(env)) if (value !== undefined) childEnv[key] = value
  const entry = options.entry ?? DEV_BIN
  const [command, args] =
    options.fileLimit === undefined
      ? [process.execPath, [entry, ...argv]]
      : ['/bin/sh', ['-c', `ulimit -n ${Math.floor(options.fileLimit)} && exec "$0" "$@"`, process.execPath, entry, ...argv]]
  const child = spawn(command, args, { cwd: options.cwd ?? ROOT, env: childEnv, stdio: 'pipe' })
  let stderr = ''
  child.stderr.setEncoding('utf8')
  child.stderr.on('data', (chunk: string) => {
    stderr += chunk
  })
  const exited = once(child, 'exit').then(([code, signal]) => ({ code: code as number | null, signal: signal as NodeJS.Signals | null }))
  const lines = readline.createInterface({ input: child.stdout })
  const firstLine = new Promise<string>((resolve, reject) => {
    lines.once('line', resolve)
    lines.once('close', () => reject(new Error(`paybox ${argv.join(' ')} closed stdout before printing a line; stderr:\n${stderr}`)))
  })
  // A rejection nobody awaits (the test failed earlier) must not become an unhandled one.
  firstLine.catch(() => {})
  return { child, firstLine, exited, stderr: () => stderr }
}
