import { Flags } from '@oclif/core'
import { BaseCommand } from '../../src/cli/base-command.js'
import { details } from '../../src/cli/output.js'
import { defaultDatabaseFile } from '../../src/config/paths.js'
import { commandLinePasswordNote, redactDatabaseLocation } from '../../src/database-location.js'
import { UserError } from '../../src/user-error.js'

export interface SandboxMigrateResult {
  database: string
  applied: string[]
  latest: string | null
}

export default class SandboxMigrate extends BaseCommand<typeof SandboxMigrate> {
  static override summary = 'Bring a sandbox database to the latest schema without starting a sandbox'
  static override description =
    'Applies the migrations the database lacks (none if it is up to date) and exits: for a shared PostgreSQL ' +
    'sandbox, a deploy step can migrate once before any replica starts. Replicas started meanwhile wait for it.'

  static override examples = [
    '<%= config.bin %> <%= command.id %> --db postgres://paybox@127.0.0.1:5432/paybox',
    '<%= config.bin %> <%= command.id %> --db ./sandbox.db --json',
  ]

  static override flags = {
    db: Flags.string({
      description: 'SQLite database file, or a postgres:// URL (default: ~/.paybox/sandbox.db)',
      env: 'PAYBOX_DATABASE_URL',
    }),
  }

  public async run(): Promise<SandboxMigrateResult> {
    const location = this.flags.db ?? defaultDatabaseFile()
    if (location === ':memory:') this.error('--db :memory: has nothing to migrate: name a database file or a postgres:// URL')
    // Given on the command line, the URL's password is in the process list (ps).
    const note = this.argv.some((arg) => arg.includes(location)) ? commandLinePasswordNote(location) : undefined
    if (note !== undefined) this.notice(note)
    // Loaded here: like `sandbox start`, this command runs the sandbox's own database code.
    const { migrateDatabase } = await import('../../sandbox/db/database.js')
    const report = await migrateDatabase(location).catch((error: Error & { code?: string }) => {
      // A database the user named wrongly (unreachable, not a database) is one line, not a bug report.
      throw error.code === 'ESANDBOXCONFIG' ? new UserError(error.message) : error
    })
    const result = { database: redactDatabaseLocation(location), applied: report.applied, latest: report.latest ?? null }
    this.print(
      details([
        ['Database', result.database],
        ['Applied', result.applied.length === 0 ? 'nothing (up to date)' : result.applied.join(', ')],
        ['Schema', result.latest ?? '-'],
      ]),
    )
    return result
  }
}
