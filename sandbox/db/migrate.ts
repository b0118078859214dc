// Runs a backend's migrations: one place for both, so a failure reads the same on either.
import { Migrator, type Kysely, type MigrationProvider } from 'kysely'
import type { Database } from './schema.js'

/** Applies what `provider` has that `db` lacks; the names of the migrations applied. */
export async function migrateToLatest(db: Kysely<Database>, provider: MigrationProvider): Promise<string[]> {
  const { error, results } = await new Migrator({ db, provider }).migrateToLatest()
  if (error) {
    const failed = results?.find((result) => result.status === 'Error')?.migrationName
    throw new Error(`Database migration ${failed ?? ''} failed: ${error instanceof Error ? error.message : String(error)}`)
  }
  return (results ?? []).filter((result) => result.status === 'Success').map((result) => result.migrationName)
}
