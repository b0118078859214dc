// `paybox sandbox migrate` brings a database to the latest schema without starting a sandbox:
// every migration on a new database, nothing on one already migrated, and a sandbox then starts
// on it. On the postgres test backend it migrates a PostgreSQL database the same way.
import { describe, expect, it } from 'vitest'
import { expectOneLineFailure, isolatedEnv, runCli, runCliJson } from '../../harness/cli.js'
import { freshDatabase, startTestSandbox, testBackend } from '../../harness/sandbox.js'

interface Migrated {
  database: string
  applied: string[]
  latest: string | null
}

describe('paybox sandbox migrate', () => {
  it(`applies every migration to a new ${testBackend} database once, then nothing, and a sandbox starts on it`, async () => {
    const fresh = await freshDatabase()
    try {
      const first = await runCliJson<Migrated>(['sandbox', 'migrate', '--db', fresh.location], isolatedEnv())
      expect(first.exitCode, first.stderr).toBe(0)
      expect(first.json.applied.length).toBeGreaterThan(0)
      expect(first.json.applied.at(-1)).toBe(first.json.latest)
      const again = await runCliJson<Migrated>(['sandbox', 'migrate', '--db', fresh.location], isolatedEnv())
      expect(again.json.applied).toEqual([])
      expect(again.json.latest).toBe(first.json.latest)
      const sandbox = await startTestSandbox({ db: fresh.location })
      expect(sandbox.merchants).toHaveLength(2)
      await sandbox.stop()
    } finally {
      await fresh.drop()
    }
  })

  it('takes the database from PAYBOX_DATABASE_URL and keeps a password out of what it prints', async () => {
    const result = await runCli(['sandbox', 'migrate'], isolatedEnv({ PAYBOX_DATABASE_URL: 'postgres://paybox:s3cret@127.0.0.1:1/none' }))
    expect(result.exitCode).toBe(1)
    expect(result.stdout).toBe('')
    expect(result.stderr).toMatch(
      /^Error: --db postgres:\/\/paybox:\*\*\*@127\.0\.0\.1:1\/none: PostgreSQL refused or could not be reached .*\n$/,
    )
    expect(result.stderr).not.toContain('s3cret')
  })

  it('refuses :memory:, which has nothing to migrate', async () => {
    expectOneLineFailure(
      await runCli(['sandbox', 'migrate', '--db', ':memory:'], isolatedEnv()),
      '--db :memory: has nothing to migrate: name a database file or a postgres:// URL (see --help)',
    )
  })
})
