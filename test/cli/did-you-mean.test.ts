// A mistyped command or flag is answered in one line with the nearest right one, in the words
// the user types (`payments create`, not `payments:create`), exit 1, and never a question.
import { describe, expect, it } from 'vitest'
import { expectOneLineFailure, isolatedEnv, runCli, spawnCli } from '../../harness/cli.js'

describe('did you mean', () => {
  it('suggests the nearest command, space-separated', async () => {
    expectOneLineFailure(
      await runCli(['payments', 'creat'], isolatedEnv()),
      'Unknown command "payments creat". Did you mean paybox payments create?',
    )
    expectOneLineFailure(
      await runCli(['paymnts', 'list', '--status', 'open'], isolatedEnv()),
      'Unknown command "paymnts list". Did you mean paybox payments list?',
    )
    expectOneLineFailure(
      await runCli(['sandbox', 'clock', 'advanse', '1m'], isolatedEnv()),
      'Unknown command "sandbox clock advanse". Did you mean paybox sandbox clock advance?',
    )
  })

  it('suggests a topic', async () => {
    expectOneLineFailure(await runCli(['paymnts'], isolatedEnv()), 'Unknown command "paymnts". Did you mean paybox payments?')
  })

  it('says where the commands are listed when nothing is near', async () => {
    expectOneLineFailure(await runCli(['frobnicate'], isolatedEnv()), 'Unknown command "frobnicate" (see paybox --help for the commands)')
  })

  it('suggests the nearest flag of the command', async () => {
    expectOneLineFailure(
      await runCli(['payments', 'create', '--amout', '5', '--descripton', 'x'], isolatedEnv()),
      'Nonexistent flags: --amout, --descripton. Did you mean --amount, --description? (see --help)',
    )
    expectOneLineFailure(
      await runCli(['payments', 'list', '--jsno'], isolatedEnv()),
      'Nonexistent flag: --jsno. Did you mean --json? (see --help)',
    )
    expectOneLineFailure(await runCli(['payments', 'list', '--bogus'], isolatedEnv()), 'Nonexistent flag: --bogus (see --help)')
  })

  it('never waits for an answer, even without CI and with stdin open', async () => {
    const { CI: _ci, ...env } = isolatedEnv()
    const spawned = spawnCli(['payments', 'creat'], env)
    expect(await spawned.exited).toEqual({ code: 1, signal: null })
    expect(spawned.stderr()).toBe('Error: Unknown command "payments creat". Did you mean paybox payments create?\n')
  })
})
