// Commands that run until signalled (`webhooks tail`, `listen`), as child processes; any left running
// after a test is killed.
import readline from 'node:readline'
import { afterEach } from 'vitest'
import { spawnCli, type CliEnv, type SpawnedCli } from './cli.js'
import { waitFor } from './wait.js'

export interface Running {
  spawned: SpawnedCli
  /** stdout, a line per entry, as it arrives. */
  lines: string[]
}

const running: Running[] = []

afterEach(async () => {
  for (const { spawned } of running.splice(0)) {
    if (spawned.child.exitCode === null && spawned.child.signalCode === null) {
      spawned.child.kill('SIGKILL')
      await spawned.exited
    }
  }
})

/** Starts the command and resolves once its stderr says `ready`. */
export async function startRunning(argv: string[], env: CliEnv, ready: string): Promise<Running> {
  const spawned = spawnCli(argv, env)
  const lines: string[] = []
  readline.createInterface({ input: spawned.child.stdout }).on('line', (line) => lines.push(line))
  const started = { spawned, lines }
  running.push(started)
  await waitFor(`${argv.join(' ')} to be ready`, () => spawned.stderr().includes(ready), 20_000)
  return started
}

/** SIGTERM, then how it exited. */
export async function stopRunning({ spawned }: Running): Promise<{ code: number | null; signal: NodeJS.Signals | null }> {
  spawned.child.kill('SIGTERM')
  return spawned.exited
}
