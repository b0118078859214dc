// Shell completion through oclif's autocomplete plugin: the instructions, the line a shell
// profile sources, and a bash completion that really completes paybox's commands (space-separated)
// and their flags, run in bash itself.
import { execFile } from 'node:child_process'
import fs from 'node:fs'
import path from 'node:path'
import { promisify } from 'node:util'
import { describe, expect, it } from 'vitest'
import { isolatedEnv, runCli, spawnCli } from '../../harness/cli.js'
import { temporaryDir } from '../../harness/sandbox.js'

const run = promisify(execFile)

async function paybox(argv: string[], home: string): Promise<{ code: number | null; stdout: string }> {
  const spawned = spawnCli(argv, { ...isolatedEnv(), HOME: home, XDG_CACHE_HOME: path.join(home, '.cache') })
  let stdout = ''
  spawned.child.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk))
  const { code } = await spawned.exited
  return { code, stdout }
}

/** What bash offers for the words typed so far (the last one being completed), once each as readline shows them. */
async function completions(script: string, words: string[]): Promise<string[]> {
  const typed = words.map((word) => `'${word}'`).join(' ')
  const { stdout } = await run('bash', [
    '-c',
    `source '${script}'; COMP_WORDS=(${typed}); COMP_CWORD=${words.length - 1}; _paybox_autocomplete; printf '%s\\n' "\${COMPREPLY[@]}"`,
  ])
  return [...new Set(stdout.split('\n').filter((line) => line !== ''))]
}

describe('paybox autocomplete', () => {
  it('explains itself in --help', async () => {
    const { stdout, exitCode } = await runCli(['autocomplete', '--help'], isolatedEnv())
    expect(exitCode).toBe(0)
    expect(stdout).toContain('$ paybox autocomplete [SHELL]')
    expect(stdout).toContain('(zsh|bash|powershell)')
  })

  it('writes a bash completion that completes commands and flags', { timeout: 60_000 }, async () => {
    const home = temporaryDir('paybox-autocomplete-')
    const setup = await paybox(['autocomplete', 'script', 'bash'], home)
    expect(setup.code).toBe(0)
    expect(setup.stdout).toContain(`${home}/.cache/paybox/autocomplete/bash_setup`)

    expect((await paybox(['autocomplete', 'bash', '--refresh-cache'], home)).code).toBe(0)
    const script = path.join(home, '.cache', 'paybox', 'autocomplete', 'functions', 'bash', 'paybox.bash')
    expect(fs.existsSync(script)).toBe(true)
    expect(await completions(script, ['paybox', 'paym'])).toEqual(['payments'])
    expect(await completions(script, ['paybox', 'payments', 'cre'])).toEqual(['create'])
    expect(await completions(script, ['paybox', 'payments', 'create', '--amo'])).toEqual(['--amount'])
    expect(await completions(script, ['paybox', 'webhooks', 'ta'])).toEqual(['tail'])
  })
})
