// Runs a backend's migrations: one place for both, so a failure reads the same on either.
import { Migrator, type Kysely, type MigrationProvider } from 'kysely'
import type { Database } from './schema.js'

/**
 * Applies what `provider` has that `db` lacks; the names of the migrations applied. `schema`
 * names where kysely keeps its own tables when the database works in a schema of its own:
 * kysely would otherwise take another schema's for its own.
 */
export async function migrateToLatest(db: Kysely<Database>, provider: MigrationProvider, schema?: string): Promise<string[]> {
  const { error, results } = await new Migrator({ db, provider, migrationTableSchema: schema }).migrateToLatest()
  if (error) {
    const failed = results?.find((result) => result.status === 'Error')?.migrationName
    throw new Error(`Database migration ${failed ?? ''} failed: ${error instanceof Error ? error.message : String(error)}`)
  }
  return (results ?? []).filter((result) => result.status === 'Success').map((result) => result.migrationName)
}
