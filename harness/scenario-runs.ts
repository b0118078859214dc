// Scenario runs as separate CLI processes at once, as parallel CI jobs make them: each prints its
// --json report, read whole once it exits.
import fs from 'node:fs'
import path from 'node:path'
import type { ScenarioReport } from '../src/scenario/run.js'
import { spawnCli, type CliEnv } from './cli.js'
import { temporaryDir } from './sandbox.js'

export interface ParallelRun {
  exitCode: number | null
  report: ScenarioReport
  stderr: string
}

/** `paybox scenario run <file> --json <extra…>` once per env, all at once. */
export async function runScenariosInParallel(file: string, envs: CliEnv[], extra: string[] = []): Promise<ParallelRun[]> {
  return Promise.all(
    envs.map(async (env) => {
      const spawned = spawnCli(['scenario', 'run', file, '--json', ...extra], env)
      let stdout = ''
      spawned.child.stdout.setEncoding('utf8')
      spawned.child.stdout.on('data', (chunk: string) => (stdout += chunk))
      const { code } = await spawned.exited
      try {
        return { exitCode: code, report: JSON.parse(stdout) as ScenarioReport, stderr: spawned.stderr() }
      } catch {
        throw new Error(`scenario run printed no JSON report (exit ${code}):\n${stdout}\nstderr:\n${spawned.stderr()}`)
      }
    }),
  )
}

/** Writes a scenario into a fresh folder and returns its path. */
export function scenarioFile(text: string, name = 'scenario.yaml'): string {
  const file = path.join(temporaryDir('paybox-scenario-'), name)
  fs.writeFileSync(file, text)
  return file
}

/**
 * Each run freezes its clock, and moves it past its payment's expiry in steps: a payment due in an
 * hour stays open through 59 minutes, is paid (a balance of exactly 9.90: nobody else's money), and a
 * second one expires after 61. Had another run's clock moved this one's, an "open" would fail.
 */
export const OWN_TIME_SCENARIO = `name: A payment expires by this run's own clock, and no one else's
steps:
  - id: frozen
    freezeClock: {}
  - id: kept
    createPayment: { amount: { value: 1000, currency: USD }, description: Kept, expiresInHours: 1 }
  - advanceClock: { by: 20m }
  - expect: { payment: "\${steps.kept.id}", field: status, equals: open }
  - advanceClock: { by: 20m }
  - expect: { payment: "\${steps.kept.id}", field: status, equals: open }
  - advanceClock: { by: 19m }
  - expect: { payment: "\${steps.kept.id}", field: status, equals: open }
  - pay: { payment: "\${steps.kept.id}" }
  - expectBalance: { equals: "9.9", within: 20s }
  - id: late
    createPayment: { amount: { value: 1000, currency: USD }, description: Late, expiresInHours: 1 }
  - id: last
    advanceClock: { by: 61m }
  - expect: { payment: "\${steps.late.id}", field: status, equals: expired }
  - expect: { payment: "\${steps.kept.id}", field: status, equals: paid }
`

/** How far a run of OWN_TIME_SCENARIO moved its clock, from its frozen instant to its last advance: 120 minutes alone. */
export function clockMovedBy(report: ScenarioReport): number {
  const at = (id: string) => Date.parse((report.steps.find((step) => step.id === id)?.result as { now: string }).now)
  return at('last') - at('frozen')
}
