// The reliability proofs of issue 9 at bench size, with the same code as their CI tests: the
// hostile-input suite (harness/hostile-run.ts; 10,000 seeded malformed requests, CI sends
// 2,500) and crash safety (harness/crash-run.ts; 10 SIGKILL rounds on one file, CI 3).
// The section stops at its time budget, so a hung sandbox cannot push the bench past 5 minutes.
import { CRASH_SEED, runCrashRounds } from '../../harness/crash-run.js'
import { CI_SEED, runHostile } from '../../harness/hostile-run.js'
import { figure, type Figure } from '../lib/figures.js'
import type { BenchSettings } from '../lib/settings.js'

/** Problems printed in full; the rest are counted. */
const SHOWN = 5
const SECTION = 'reliability'

const hex = (seed: number) => `0x${seed.toString(16)}`
const count = (n: number) => n.toLocaleString('en-US')

function logFirst(log: (line: string) => void, what: string, lines: readonly string[]): void {
  if (lines.length === 0) return
  log(`  ${what} (${count(lines.length)}):`)
  for (const line of lines.slice(0, SHOWN)) log(`    ${line}`)
  if (lines.length > SHOWN) log(`    … and ${count(lines.length - SHOWN)} more`)
}

export async function reliabilityFigures(settings: BenchSettings, log: (line: string) => void): Promise<Figure[]> {
  const started = performance.now()
  const budget = new AbortController()
  const timer = setTimeout(
    () => budget.abort(new Error(`the reliability section's budget of ${settings.reliabilityBudgetSeconds} s ran out`)),
    settings.reliabilityBudgetSeconds * 1000,
  )
  try {
    const hostileSeed = settings.reliabilitySeed ?? CI_SEED
    log(
      `  hostile input: ${count(settings.hostileCases)} cases, seed ${hex(hostileSeed)} (replay: runHostile({cases: ${settings.hostileCases}, seed: ${hex(hostileSeed)}}))`,
    )
    const hostile = await runHostile({ cases: settings.hostileCases, seed: hostileSeed, signal: budget.signal })
    const serverErrors = Object.entries(hostile.statuses).reduce((sum, [status, n]) => (Number(status) >= 500 ? sum + n : sum), 0)
    log(
      `  hostile input: ${count(hostile.sent)} of ${count(hostile.cases)} sent in ${(hostile.durationMs / 1000).toFixed(1)} s; statuses ${JSON.stringify(hostile.statuses)}`,
    )
    logFirst(log, 'hostile cases answered otherwise than expected', hostile.failures)
    logFirst(log, 'routes reached by too few cases', hostile.uncoveredRoutes)
    logFirst(log, 'state changed by refused requests', hostile.stateChanges)
    if (!hostile.healthyAfter) log('  hostile input: GET /health is not ok afterwards')

    const crashSeed = settings.reliabilitySeed ?? CRASH_SEED
    log(
      `  crash safety: ${settings.crashRounds} SIGKILL rounds, seed ${hex(crashSeed)} (replay: runCrashRounds({rounds: ${settings.crashRounds}, seed: ${hex(crashSeed)}}))`,
    )
    const crash = await runCrashRounds({ rounds: settings.crashRounds, seed: crashSeed, signal: budget.signal })
    const writes = crash.acknowledged.payments + crash.acknowledged.invoices
    log(
      `  crash safety: ${crash.roundsRun} of ${crash.rounds} rounds in ${(crash.durationMs / 1000).toFixed(1)} s; ${count(writes)} acknowledged writes ` +
        `(${crash.acknowledged.paid} paid), ${crash.inFlightAtKills} requests cut off, ${crash.pendingAtCrashes} deliveries left pending, ${crash.deliveries} delivered`,
    )
    logFirst(log, 'crash-safety violations', crash.violations)

    const seconds = (performance.now() - started) / 1000
    const zero = (n: number) => ({ goal: '0', met: n === 0 })
    return [
      figure(SECTION, `hostile input: cases sent (seed ${hex(hostile.seed)})`, hostile.sent, 'cases', {
        goal: `all ${count(hostile.cases)}, every route ≥ 3`,
        met: hostile.sent === hostile.cases && hostile.uncoveredRoutes.length === 0,
        note: `one at a time to an in-process sandbox, ${hostile.durationMs} ms; statuses ${JSON.stringify(hostile.statuses)}`,
      }),
      figure(SECTION, 'hostile input: answers ≥ 500', serverErrors, 'answers', zero(serverErrors)),
      figure(SECTION, 'hostile input: non-JSON error bodies', hostile.nonJsonErrorBodies, 'answers', zero(hostile.nonJsonErrorBodies)),
      figure(SECTION, 'hostile input: cases answered otherwise than expected', hostile.failures.length, 'cases', {
        ...zero(hostile.failures.length),
        note: 'any problem: the two above, a wrong 4xx, a stack trace, no answer',
      }),
      figure(
        SECTION,
        'hostile input: state changed by refused requests',
        hostile.stateChanges.length,
        'parts',
        zero(hostile.stateChanges.length),
      ),
      figure(SECTION, 'hostile input: sandbox healthy afterwards (1 = yes)', hostile.healthyAfter ? 1 : 0, '', {
        goal: 'yes',
        met: hostile.healthyAfter,
      }),
      figure(SECTION, `crash safety: SIGKILL rounds on one file (seed ${hex(crash.seed)})`, crash.roundsRun, 'rounds', {
        goal: `all ${crash.rounds}, > 20 acknowledged writes a round`,
        met: crash.roundsRun === crash.rounds && writes > crash.rounds * 20 && crash.deliveries > 0,
        note: `${crash.durationMs} ms; ${writes} acknowledged writes (${crash.acknowledged.payments} payments, ${crash.acknowledged.invoices} invoices; ${crash.acknowledged.paid} paid) checked after each restart; ${crash.deliveries} webhook deliveries`,
      }),
      // The kills prove something only if they interrupt work: requests and webhook deliveries.
      figure(SECTION, 'crash safety: requests cut off by the kills', crash.inFlightAtKills, 'requests', {
        goal: '> 0',
        met: crash.inFlightAtKills > 0,
      }),
      figure(SECTION, 'crash safety: webhook deliveries left pending by the kills', crash.pendingAtCrashes, 'deliveries', {
        goal: '> 0',
        met: crash.pendingAtCrashes > 0,
      }),
      figure(SECTION, 'crash safety: violations', crash.violations.length, 'violations', zero(crash.violations.length)),
      figure(SECTION, 'reliability runs, hostile input and crash safety', seconds, 's', {
        goal: `≤ ${settings.reliabilityBudgetSeconds} s`,
        met: seconds <= settings.reliabilityBudgetSeconds,
        note: `hostile ${(hostile.durationMs / 1000).toFixed(1)} s of sending, crash ${(crash.durationMs / 1000).toFixed(1)} s`,
      }),
    ]
  } finally {
    clearTimeout(timer)
  }
}
