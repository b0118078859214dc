// `paybox sandbox start` as a real process under load it must survive: idle connections past its
// file-descriptor limit (the local default), and, with --shared, thousands of idle connections
// and event streams from many addresses while /health keeps answering promptly. Clients on
// 127.0.0.x addresses stand for other machines.
import { execFileSync } from 'node:child_process'
import type net from 'node:net'
import path from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { SHARED_LIMITS } from '../../sandbox/limits/sandbox-limits.js'
import type { SandboxBanner } from '../../src/cli/render/sandbox.js'
import { isolatedEnv, spawnCli, type SpawnOptions, type SpawnedCli } from '../../harness/cli.js'
import { idleConnections, openStream, type OpenedStream, type Target } from '../../harness/connections.js'
import { temporaryDir } from '../../harness/sandbox.js'

const running: SpawnedCli[] = []
const sockets: net.Socket[] = []
const streams: OpenedStream[] = []

afterEach(async () => {
  for (const socket of sockets.splice(0)) socket.destroy()
  for (const stream of streams.splice(0)) stream.close()
  for (const sandbox of running.splice(0)) {
    if (sandbox.child.exitCode === null && sandbox.child.signalCode === null) {
      sandbox.child.kill('SIGKILL')
      await sandbox.exited
    }
  }
})

async function start(extra: string[], options: SpawnOptions = {}): Promise<{ spawned: SpawnedCli; target: Target; banner: SandboxBanner }> {
  const db = path.join(temporaryDir(), 'sandbox.db')
  const spawned = spawnCli(['sandbox', 'start', '--port', '0', '--db', db, '--json', ...extra], isolatedEnv(), options)
  running.push(spawned)
  const banner = JSON.parse(await spawned.firstLine) as SandboxBanner
  return { spawned, banner, target: { url: banner.baseUrl, port: Number(new URL(banner.baseUrl).port) } }
}

/** This process's own soft limit on open files. */
const ownFileLimit = () => Number(execFileSync('/bin/sh', ['-c', 'ulimit -n'], { encoding: 'utf8' }).trim())

/** /health's status, or the failure, within a generous bound: promptly means seconds, not a benchmark. */
async function healthPromptly(target: Target): Promise<number | string> {
  try {
    return (await fetch(`${target.url}/health`, { signal: AbortSignal.timeout(5_000) })).status
  } catch (error) {
    return String(error)
  }
}

/** `total` calls of `open` spread over `addresses` loopback addresses, `batch` at a time (the listen backlog is finite). */
async function spread<T>(
  total: number,
  addresses: number,
  batch: number,
  open: (from: string, count: number) => Promise<T[]>,
): Promise<T[]> {
  const all: T[] = []
  const perAddress = Math.ceil(total / addresses)
  for (let first = 0; first < addresses; first += Math.max(1, Math.floor(batch / perAddress))) {
    const group = Array.from(
      { length: Math.min(addresses - first, Math.max(1, Math.floor(batch / perAddress))) },
      (_, i) => `127.0.0.${10 + first + i}`,
    )
    for (const result of await Promise.all(group.map((from) => open(from, Math.min(perAddress, total - all.length))))) all.push(...result)
  }
  return all
}

describe('a sandbox under connection load', () => {
  it('keeps /health answering when idle connections exceed its file-descriptor limit (local default)', async () => {
    const { target } = await start([], { fileLimit: 1024 })
    await idleConnections(target, 1_500, '127.0.0.2', sockets)
    expect(await healthPromptly(target)).toBe(200)
  })

  it('--shared: holds its bounds and answers /health promptly under 5,000 idle connections and 2,000 streams', async () => {
    // This process holds at once what the sandbox keeps open (it closes the rest) and a batch
    // being opened, beside what vitest holds; the sandbox itself needs about as many.
    const limit = ownFileLimit()
    expect(
      limit,
      `ulimit -n is ${limit}: this test needs room for ${SHARED_LIMITS.maxConnections + 1_500} open files`,
    ).toBeGreaterThanOrEqual(SHARED_LIMITS.maxConnections + 1_500)
    const [idle, streamCount] = [5_000, 2_000]
    const { target } = await start(['--shared'])

    await spread(idle, 100, 500, (from, count) => idleConnections(target, count, from, sockets))
    expect(await healthPromptly(target)).toBe(200)

    const answered = await spread(streamCount, 100, 250, (from, count) =>
      Promise.all(Array.from({ length: count }, () => openStream(target, '/horizon/payments?cursor=now', from, streams))),
    )
    const open = answered.filter((stream) => stream.status === 200)
    const refused = answered.filter((stream) => stream.status === 429)
    expect(open).toHaveLength(SHARED_LIMITS.maxStreams)
    expect(refused.length).toBe(streamCount - SHARED_LIMITS.maxStreams)
    expect(refused[0]!.headers['retry-after']).toBe('5')
    expect(JSON.parse(await refused[0]!.body)).toMatchObject({ statusCode: 429, reason: 'Too Many Requests' })
    expect(await healthPromptly(target)).toBe(200)

    // Still a working sandbox: admin-token guesses from one address hit the --shared limit.
    const guesses: number[] = []
    for (let i = 0; i <= SHARED_LIMITS.adminFailureRate!.burst; i++) {
      guesses.push((await fetch(`${target.url}/sandbox/clock`, { headers: { 'x-sandbox-admin-token': 'adm_guess' } })).status)
    }
    expect(guesses).toEqual([...Array<number>(SHARED_LIMITS.adminFailureRate!.burst).fill(401), 429])
  })
})
