// The sandbox process of a data folder: its pid file (which `sandbox stop` and `logs -f` go by), and
// starting one in the background (`sandbox start --detach`).
import { spawn } from 'node:child_process'
import fs from 'node:fs'
import path from 'node:path'
import { setTimeout as delay } from 'node:timers/promises'
import { UserError } from '../user-error.js'
import { clearLocalSandbox, readLocalSandbox } from './local-sandbox.js'
import { dataDir, sandboxLogFile, sandboxPidFile } from './paths.js'

export function readSandboxPid(env?: NodeJS.ProcessEnv): number | undefined {
  let text: string
  try {
    text = fs.readFileSync(sandboxPidFile(env), 'utf8')
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined
    throw error
  }
  const pid = Number(text.trim())
  return Number.isInteger(pid) && pid > 0 ? pid : undefined
}

// Two sandboxes sharing one state file would lose track of each other. The file appears whole and at
// once (a hard link fails if it exists), so two racing starts cannot both win.
export function claimSandboxPid(pid: number, env?: NodeJS.ProcessEnv): void {
  const file = sandboxPidFile(env)
  fs.mkdirSync(path.dirname(file), { recursive: true, mode: 0o700 })
  const draft = `${file}.${pid}`
  fs.writeFileSync(draft, `${pid}\n`, { mode: 0o600 })
  try {
    for (;;) {
      try {
        fs.linkSync(draft, file)
        return
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error
      }
      const holder = readSandboxPid(env)
      // Our own pid in the file is a stale one from an earlier process (containers reuse pids).
      if (holder !== undefined && holder !== pid && isProcessAlive(holder)) throw alreadyRunning(holder, env)
      if (holder === undefined) fs.rmSync(file, { force: true })
      else clearSandboxPid(holder, env)
    }
  } finally {
    fs.rmSync(draft, { force: true })
  }
}

export function clearSandboxPid(pid: number, env?: NodeJS.ProcessEnv): void {
  if (readSandboxPid(env) === pid) fs.rmSync(sandboxPidFile(env), { force: true })
}

/** Whether a process with this pid exists (signal 0 checks without signalling). */
export function isProcessAlive(pid: number): boolean {
  try {
    process.kill(pid, 0)
    return true
  } catch (error) {
    // EPERM: it exists, under another user.
    return (error as NodeJS.ErrnoException).code === 'EPERM'
  }
}

export function runningSandboxPid(env?: NodeJS.ProcessEnv): number | undefined {
  const pid = readSandboxPid(env)
  return pid !== undefined && isProcessAlive(pid) ? pid : undefined
}

/** The sandbox registered in this data folder is running: names it, and how to run another beside it. */
export class SandboxAlreadyRunning extends UserError {
  constructor(
    readonly pid: number,
    readonly baseUrl: string | undefined,
    env?: NodeJS.ProcessEnv,
  ) {
    super(
      `A sandbox from ${dataDir(env)} is already running${baseUrl === undefined ? '' : ` at ${baseUrl}`} (pid ${pid})`,
      'stop it first with paybox sandbox stop, or give another one its own data folder: PAYBOX_HOME=<folder> paybox sandbox start --port <port>',
    )
  }
}

function alreadyRunning(pid: number, env?: NodeJS.ProcessEnv): SandboxAlreadyRunning {
  const state = readLocalSandbox(env)
  return new SandboxAlreadyRunning(pid, state?.pid === pid ? state.baseUrl : undefined, env)
}

export interface DetachedSandbox {
  pid: number
  /** The first line the sandbox printed on stdout: its JSON banner. */
  bannerLine: string
  logFile: string
}

// The banner holds keys: stdout goes to a private file read once and removed, not to the log.
export async function launchDetachedSandbox(
  entry: string,
  args: string[],
  env: NodeJS.ProcessEnv = process.env,
  timeoutMs = 60_000,
): Promise<DetachedSandbox> {
  const running = runningSandboxPid(env)
  if (running !== undefined) throw alreadyRunning(running, env)
  fs.mkdirSync(dataDir(env), { recursive: true, mode: 0o700 })
  const logFile = sandboxLogFile(env)
  const bannerFile = path.join(dataDir(env), `sandbox.banner.${process.pid}`)
  const log = fs.openSync(logFile, 'w', 0o600)
  fs.fchmodSync(log, 0o600)
  const banner = fs.openSync(bannerFile, 'w', 0o600)
  const child = spawn(process.execPath, [entry, 'sandbox', 'start', ...args, '--json'], {
    detached: true,
    stdio: ['ignore', banner, log],
    env,
  })
  fs.closeSync(log)
  fs.closeSync(banner)
  let ended: string | undefined
  child.once('exit', (code, signal) => (ended = signal ?? `exit code ${code}`))
  child.once('error', (error) => (ended = error.message))
  const deadline = Date.now() + timeoutMs
  try {
    for (;;) {
      const text = fs.readFileSync(bannerFile, 'utf8')
      const end = text.indexOf('\n')
      if (end >= 0 && child.pid !== undefined) return { pid: child.pid, bannerLine: text.slice(0, end), logFile }
      if (ended !== undefined) throw new UserError(`The sandbox did not start: ${lastErrorOf(logFile) ?? ended}`, `its log: ${logFile}`)
      if (Date.now() > deadline) {
        child.kill('SIGTERM')
        throw new UserError(`The sandbox was not ready within ${Math.round(timeoutMs / 1000)} s`, `its log: ${logFile}`)
      }
      // The sandbox prints its banner the moment it is ready; asking often costs nothing.
      await delay(25)
    }
  } finally {
    fs.rmSync(bannerFile, { force: true })
    child.unref()
  }
}

/** The error a failed `sandbox start` printed ("Error: …"), or its last line. */
function lastErrorOf(logFile: string): string | undefined {
  const lines = fs
    .readFileSync(logFile, 'utf8')
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => line !== '')
  const error = lines.findLast((line) => line.startsWith('Error: '))
  return error?.slice('Error: '.length) ?? lines.at(-1)
}

export interface StoppedSandbox {
  pid: number
  baseUrl?: string
}

/** SIGTERM, then waits until the process has exited (after its in-flight requests and state files). */
export async function stopSandboxProcess(timeoutMs: number, env?: NodeJS.ProcessEnv): Promise<StoppedSandbox> {
  const pid = readSandboxPid(env)
  if (pid === undefined) throw new UserError(`No sandbox is running from ${dataDir(env)}`, 'no pid file: nothing to stop')
  const state = readLocalSandbox(env)
  const baseUrl = state?.pid === pid ? state.baseUrl : undefined
  if (!isProcessAlive(pid)) {
    forgetSandbox(pid, env)
    throw new UserError(`No sandbox is running from ${dataDir(env)}`, `process ${pid} of its pid file is gone; removed the stale files`)
  }
  process.kill(pid, 'SIGTERM')
  const deadline = Date.now() + timeoutMs
  while (isProcessAlive(pid)) {
    if (Date.now() > deadline) {
      throw new UserError(
        `The sandbox (pid ${pid}) did not stop within ${Math.round(timeoutMs / 1000)} s`,
        `it may still be finishing requests; force it with: kill -9 ${pid}`,
      )
    }
    await delay(25)
  }
  // A sandbox that was killed outright left its files behind.
  forgetSandbox(pid, env)
  return { pid, baseUrl }
}

function forgetSandbox(pid: number, env?: NodeJS.ProcessEnv): void {
  clearSandboxPid(pid, env)
  clearLocalSandbox(pid, env)
}
