// The few SQL spellings that differ between SQLite and PostgreSQL, each written once here.
import { sql, type Kysely, type RawBuilder } from 'kysely'
import { isPostgres } from './database.js'
import type { Database } from './schema.js'

/** The values of a JSON array of strings (given as JSON text), as a subquery's rows. */
export function jsonTextValues(db: Kysely<Database>, json: unknown): RawBuilder<unknown> {
  return isPostgres(db) ? sql`select jsonb_array_elements_text(cast(${json} as jsonb))` : sql`select value from json_each(${json})`
}
