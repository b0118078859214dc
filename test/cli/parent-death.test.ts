// `npx paybox …` runs as npx → sh → node: stopping npx (SIGTERM) or killing it (SIGKILL) must not
// leave the real process behind. A foreground `sandbox start`, `listen`, `webhooks tail` and
// `logs tail` notice that the process that started them is gone and stop by themselves, the
// sandbox as it does on SIGTERM (its state and pid files removed). Linux only: it reads /proc.
import { spawn, type ChildProcess } from 'node:child_process'
import fs from 'node:fs'
import path from 'node:path'
import readline from 'node:readline'
import { afterEach, describe, expect, it } from 'vitest'
import { isolatedEnv, merchantEnv, ROOT, type CliEnv } from '../../harness/cli.js'
import { sandboxForSuite } from '../../harness/sandbox.js'
import { waitFor } from '../../harness/wait.js'
import { isProcessAlive } from '../../src/config/sandbox-process.js'

const sandbox = sandboxForSuite()
const started: ChildProcess[] = []
let stragglers: number[] = []

afterEach(() => {
  // A failed test must not leave its processes running.
  for (const pid of stragglers.splice(0)) if (isProcessAlive(pid)) process.kill(pid, 'SIGKILL')
  for (const child of started.splice(0)) if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL')
})

/** `npx paybox <argv…>` from this checkout, as a user's harness starts it; resolves once stderr says `ready`. */
async function npxPaybox(argv: string[], env: CliEnv, ready: string): Promise<{ npx: ChildProcess; stdout: string[] }> {
  const npx = spawn('npx', ['paybox', ...argv], {
    cwd: ROOT,
    env: { PATH: process.env.PATH, HOME: process.env.HOME, NO_COLOR: '1', ...env } as NodeJS.ProcessEnv,
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  started.push(npx)
  let stderr = ''
  npx.stderr!.on('data', (chunk: Buffer) => (stderr += chunk.toString()))
  const stdout: string[] = []
  readline.createInterface({ input: npx.stdout! }).on('line', (line) => stdout.push(line))
  await waitFor(`npx paybox ${argv.join(' ')} to be ready (stderr so far: ${stderr})`, () => stderr.includes(ready), 30_000)
  return { npx, stdout }
}

/** Every process below `pid` now (their pids, read from /proc). */
function descendantsOf(pid: number): number[] {
  const parents = new Map<number, number>()
  for (const entry of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue
    try {
      const stat = fs.readFileSync(`/proc/${entry}/stat`, 'utf8')
      parents.set(Number(entry), Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]))
    } catch {
      // Gone meanwhile.
    }
  }
  const below: number[] = []
  for (let frontier = [pid]; frontier.length > 0;) {
    frontier = [...parents].filter(([, parent]) => frontier.includes(parent)).map(([child]) => child)
    below.push(...frontier)
  }
  return below
}

/** Kills npx and waits until everything it had started has exited by itself. */
async function killNpxAndWaitForTree(npx: ChildProcess, signal: NodeJS.Signals): Promise<void> {
  const tree = descendantsOf(npx.pid!)
  stragglers = tree
  expect(tree.length).toBeGreaterThanOrEqual(2) // sh and node at least
  npx.kill(signal)
  await waitFor(`every process npx had started to exit after its ${signal}`, () => tree.every((pid) => !isProcessAlive(pid)), 15_000)
}

describe.runIf(process.platform === 'linux').each(['SIGTERM', 'SIGKILL'] as const)('npx paybox, its npx stopped by %s', (signal) => {
  it('sandbox start stops by itself, removing its state and pid files', async () => {
    const env = isolatedEnv()
    const { npx, stdout } = await npxPaybox(['sandbox', 'start', '--port', '0', '--db', ':memory:', '--json'], env, 'Sandbox listening on')
    await waitFor('the banner', () => stdout[0])
    const { baseUrl } = JSON.parse(stdout[0]!) as { baseUrl: string }
    expect(fs.existsSync(path.join(env.PAYBOX_HOME, 'sandbox.pid'))).toBe(true)

    await killNpxAndWaitForTree(npx, signal)
    expect(fs.existsSync(path.join(env.PAYBOX_HOME, 'sandbox.pid'))).toBe(false)
    expect(fs.existsSync(path.join(env.PAYBOX_HOME, 'sandbox.json'))).toBe(false)
    await expect(fetch(`${baseUrl}/health`)).rejects.toThrow()
  })

  it.each([
    ['listen', ['listen', '--forward-to', 'http://127.0.0.1:9/webhooks'], 'Ready: forwarding'],
    ['webhooks tail', ['webhooks', 'tail'], 'Waiting for webhook deliveries'],
    ['logs tail', ['logs', 'tail'], 'Waiting for requests'],
  ])('%s stops by itself', async (_name, argv, ready) => {
    const { npx } = await npxPaybox(argv, merchantEnv(sandbox), ready)
    await killNpxAndWaitForTree(npx, signal)
  })
})

describe.runIf(process.platform === 'linux')('npx paybox sandbox start, its starter killed while npx lives', () => {
  it('stops by itself when the harness that ran npx is killed (SIGKILL), npx and sh still running', async () => {
    const env = isolatedEnv()
    // The harness: a node process that runs npx with its own output (read here) and then just waits.
    const harness = spawn(
      process.execPath,
      [
        '-e',
        "require('child_process').spawn('npx', ['paybox', 'sandbox', 'start', '--port', '0', '--db', ':memory:', '--json'], { stdio: 'inherit' }); setInterval(() => {}, 1000)",
      ],
      {
        cwd: ROOT,
        env: { PATH: process.env.PATH, HOME: process.env.HOME, NO_COLOR: '1', ...env } as NodeJS.ProcessEnv,
        stdio: ['ignore', 'pipe', 'pipe'],
      },
    )
    started.push(harness)
    let stderr = ''
    harness.stderr!.on('data', (chunk: Buffer) => (stderr += chunk.toString()))
    await waitFor(`the sandbox to listen (stderr so far: ${stderr})`, () => stderr.includes('Sandbox listening on'), 30_000)
    const tree = descendantsOf(harness.pid!)
    stragglers = tree
    harness.kill('SIGKILL')
    await waitFor('every process the harness had started to exit', () => tree.every((pid) => !isProcessAlive(pid)), 15_000)
    expect(fs.existsSync(path.join(env.PAYBOX_HOME, 'sandbox.pid'))).toBe(false)
    expect(fs.existsSync(path.join(env.PAYBOX_HOME, 'sandbox.json'))).toBe(false)
  })
})
