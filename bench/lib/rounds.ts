// Figures beside their control: each side in turn, back to back, in alternating rounds, so the
// ratios compare like with like even when the machine's speed drifts. Each side's rounds are
// pooled: all its requests over all its time, percentiles over all its answers.
import { pooled, type LoadResult } from './load.js'
import type { BenchSettings } from './settings.js'

export interface Side {
  name: string
  run: (seconds: number) => Promise<LoadResult>
  /** Called before and after this side's turn in each round (a replica paused while others run…). */
  before?: () => Promise<void> | void
  after?: () => Promise<void> | void
}

/** settings.controlRounds rounds of every side in order, loadSeconds a side in all; pooled per side. */
export async function roundRobin(
  settings: BenchSettings,
  log: (line: string) => void,
  label: string,
  connections: number,
  sides: Side[],
): Promise<LoadResult[]> {
  const roundSeconds = settings.loadSeconds / settings.controlRounds
  const results: LoadResult[][] = sides.map(() => [])
  for (let round = 1; round <= settings.controlRounds; round++) {
    for (const [i, side] of sides.entries()) {
      await side.before?.()
      results[i]!.push(await side.run(roundSeconds))
      await side.after?.()
    }
    if (settings.controlRounds > 1)
      log(
        `  ${label} @${connections} round ${round}: ${sides.map((side, i) => `${side.name} ${Math.round(results[i]!.at(-1)!.requestsPerSecond)} req/s`).join(', ')}`,
      )
  }
  const pooledResults = results.map(pooled)
  for (const [i, r] of pooledResults.entries()) {
    const who = sides[i]!.name
    log(
      `  ${label} @${connections} ${who}: ${Math.round(r.requestsPerSecond)} req/s, p50 ${r.p50Ms.toFixed(1)} ms, p99 ${r.p99Ms.toFixed(1)} ms${r.failures ? `, ${r.failures} FAILED` : ''}`,
    )
    if (r.failures > 0) throw new Error(`${label} (${who}) had ${r.failures} failed requests: the figure would be meaningless`)
  }
  return pooledResults
}

/** The control, then the sandbox, in rounds (roundRobin of the two). */
export async function alternateRounds(
  settings: BenchSettings,
  log: (line: string) => void,
  label: string,
  connections: number,
  subject: (seconds: number) => Promise<LoadResult>,
  reference: (seconds: number) => Promise<LoadResult>,
): Promise<{ c: LoadResult; s: LoadResult }> {
  const [c, s] = await roundRobin(settings, log, label, connections, [
    { name: 'control', run: reference },
    { name: 'sandbox', run: subject },
  ])
  return { c: c!, s: s! }
}
