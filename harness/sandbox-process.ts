// Runs `paybox sandbox start --json` as a separate process (through spawnCli) and waits for the
// JSON line it prints once it accepts connections: for tests that need a second process.
import path from 'node:path'
import type { SandboxBanner } from '../src/cli/render/sandbox.js'
import { spawnCli, type SpawnOptions, type SpawnedCli } from './cli.js'
import { temporaryDir } from './sandbox.js'

export interface SandboxProcess {
  banner: SandboxBanner
  /** Its PAYBOX_HOME: a CLI run with it finds the sandbox's state file, as on the machine that started it. */
  home: string
  process: SpawnedCli
  /** Sends the signal and resolves with the exit code once the process has exited. */
  stop(signal?: NodeJS.Signals): Promise<number | null>
}

export async function spawnSandbox(args: string[], options: SpawnOptions = {}): Promise<SandboxProcess> {
  const home = temporaryDir('paybox-home-')
  const spawned = spawnCli(
    ['sandbox', 'start', '--json', ...args],
    // spawnCli passes the test run's PostgreSQL write mode on (RUN_WIDE_ENV in cli.ts).
    { PAYBOX_HOME: home, PAYBOX_CONFIG_DIR: path.join(home, 'config') },
    options,
  )
  const banner = JSON.parse(await spawned.firstLine) as SandboxBanner
  return {
    banner,
    home,
    process: spawned,
    stop: async (signal = 'SIGTERM') => {
      const { child } = spawned
      if (child.exitCode === null && child.signalCode === null) child.kill(signal)
      return (await spawned.exited).code
    },
  }
}
