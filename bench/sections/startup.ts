// What CI pays to start a sandbox per job: spawn of the built `sandbox start` on a new, empty
// database to its JSON line, beside `node -e 0` spawned in the same rounds, and the sandbox's
// resident memory once it has idled a moment after start.
import { spawnSync } from 'node:child_process'
import path from 'node:path'
import { setTimeout as delay } from 'node:timers/promises'
import { figure, median, type Figure } from '../lib/figures.js'
import { ROOT, spawnSandbox, temporaryDir } from '../lib/processes.js'
import type { BenchSettings } from '../lib/settings.js'

/** How long a started sandbox idles before its resident memory is read. */
const IDLE_MS = 1_000
const START_GOAL_RATIO = 4
const IDLE_RSS_GOAL_MB = 90

export async function startupFigures(settings: BenchSettings, log: (line: string) => void): Promise<Figure[]> {
  const dir = temporaryDir('paybox-bench-start-')
  const node: number[] = []
  const ready: number[] = []
  const rss: number[] = []
  // Interleaved rounds, so a noisy moment hurts both alike; the first start warms the file cache.
  await (await spawnSandbox(path.join(dir, 'warm.db'))).stop()
  for (let round = 0; round < settings.cliSpawns; round++) {
    const started = performance.now()
    spawnSync(process.execPath, ['-e', '0'], { cwd: ROOT })
    node.push(performance.now() - started)
    const sandbox = await spawnSandbox(path.join(dir, `empty-${round}.db`))
    try {
      ready.push(sandbox.readyMs)
      await delay(IDLE_MS)
      const bytes = sandbox.rssBytes()
      if (bytes !== undefined) rss.push(bytes / 2 ** 20)
    } finally {
      await sandbox.stop()
    }
  }
  const control = median(node)
  const start = median(ready)
  log(
    `  medians of ${settings.cliSpawns}: node -e 0 ${control.toFixed(0)} ms, start to ready ${start.toFixed(0)} ms${rss.length ? `, idle RSS ${median(rss).toFixed(0)} MB` : ''}`,
  )
  const figures = [
    figure('startup', `sandbox start to ready, empty database (median of ${settings.cliSpawns})`, start, 'ms', {
      control: { name: 'node -e 0', value: control },
      goal: `≤ ${START_GOAL_RATIO}× node -e 0`,
      met: start <= START_GOAL_RATIO * control,
      note: 'spawn of bin/run.js sandbox start --json to its JSON line',
    }),
  ]
  if (rss.length > 0) {
    const idle = median(rss)
    figures.push(
      figure('startup', `sandbox RSS ${IDLE_MS / 1000} s after start (median of ${rss.length})`, idle, 'MB', {
        goal: `≤ ${IDLE_RSS_GOAL_MB} MB`,
        met: idle <= IDLE_RSS_GOAL_MB,
      }),
    )
  }
  return figures
}
