// When a command that runs until stopped (`sandbox start`, `listen`, `webhooks tail`, `logs tail`)
// should wind down: SIGINT, SIGTERM, or the process that started it dying. The last matters through
// `npx paybox …` (npx → sh → node): npx does not pass a SIGKILL on, nor does sh a SIGTERM, and a
// sandbox left behind holds its port and its data folder's files.
import fs from 'node:fs'
import path from 'node:path'

/** How often the launch chain is checked: a dead starter is noticed within this. */
const WATCH_INTERVAL_MS = 200

/** A process of the chain, and the parent it had when the command started. */
interface Link {
  pid: number
  parent: number
}

const SHELLS = new Set(['sh', 'dash', 'bash', 'zsh', 'ash', 'ksh'])

/** The parent of `pid` as the kernel says now; undefined once it is gone (or without /proc). */
function parentOf(pid: number): number | undefined {
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8')
    // "pid (comm) state ppid …": comm may hold spaces and parentheses.
    return Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1])
  } catch {
    return undefined
  }
}

/** `sh -c …` (how npm runs scripts and npx runs bins) or npm/npx itself: launchers, not the starter. */
function isLauncher(pid: number): boolean {
  let argv: string[]
  try {
    argv = fs.readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0')
  } catch {
    return false
  }
  // npm retitles itself "npm exec paybox …", which is what /proc shows as its argv[0].
  const name = path.basename(argv[0]?.split(' ')[0] ?? '')
  if (SHELLS.has(name)) return argv[1] === '-c'
  return name === 'npm' || name === 'npx' || argv.some((arg) => /[\\/]bin[\\/]np[mx]-cli\.js$/.test(arg))
}

/**
 * This process and the launchers above it, up to the starter: the first ancestor that is not a
 * launcher. Any of them dying reparents the link below it. Without /proc, this process alone.
 */
function launchChain(): Link[] {
  const chain: Link[] = [{ pid: process.pid, parent: process.ppid }]
  for (let top = chain[0]!; top.parent > 1 && chain.length < 8 && isLauncher(top.parent); top = chain.at(-1)!) {
    const parent = parentOf(top.parent)
    if (parent === undefined) break
    chain.push({ pid: top.parent, parent })
  }
  return chain
}

/** The first link whose parent is no longer the one it started under (dead, so it was reparented), if any. */
function brokenLink(chain: Link[]): Link | undefined {
  return chain.find((link) => (link.pid === process.pid ? process.ppid : parentOf(link.pid)) !== link.parent)
}

export interface StopRequestOptions {
  /** Also stop when the starting process dies (default); false for a detached sandbox, which outlives it by design. */
  followParent?: boolean
}

/**
 * Calls `stop` once, at the first SIGINT or SIGTERM, or when the process that started this one (through
 * any `npx`/`sh -c` in between) has died. Returns a function that stops listening.
 */
export function onStopRequest(stop: (why: string) => void, options: StopRequestOptions = {}): () => void {
  let watch: NodeJS.Timeout | undefined
  const finish = (why: string) => {
    dispose()
    stop(why)
  }
  const onSignal = (signal: NodeJS.Signals) => finish(`${signal} received`)
  process.once('SIGINT', onSignal)
  process.once('SIGTERM', onSignal)
  if (options.followParent !== false) {
    const chain = launchChain()
    watch = setInterval(() => {
      const broken = brokenLink(chain)
      if (broken === undefined) return
      // Whoever read our output may be gone with it: a write must not fail with EPIPE.
      for (const stream of [process.stdout, process.stderr]) stream.on('error', () => {})
      finish(`the process that started it (pid ${broken.parent}) exited`)
    }, WATCH_INTERVAL_MS)
    // The command's own work keeps the process alive, not this.
    watch.unref()
  }
  function dispose() {
    process.off('SIGINT', onSignal)
    process.off('SIGTERM', onSignal)
    clearInterval(watch)
  }
  return dispose
}
