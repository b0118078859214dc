// The few SQL spellings that differ between SQLite and PostgreSQL, each written once here.
import { sql, type Kysely, type RawBuilder, type SelectQueryBuilder } from 'kysely'
import { isPostgres } from './database.js'
import type { Database } from './schema.js'

/** The values of a JSON array of strings (given as JSON text), as a subquery's rows. */
export function jsonTextValues(db: Kysely<Database>, json: unknown): RawBuilder<unknown> {
  return isPostgres(db) ? sql`select jsonb_array_elements_text(cast(${json} as jsonb))` : sql`select value from json_each(${json})`
}

/**
 * `text` compared byte by byte, so that a range on it is a prefix range: SQLite's own order of
 * text; on PostgreSQL the "C" collation, whatever the database's (an index must be on the same).
 */
export function inByteOrder(db: Kysely<Database>, text: RawBuilder<string>): RawBuilder<string> {
  return isPostgres(db) ? sql<string>`(${text} collate "C")` : text
}

/**
 * `text` read as a whole number, to be written back and compared by the caller: SQLite reads the
 * leading digits of any text (saturating past 2^63); PostgreSQL would fail on other text, so
 * there only up to 18 ASCII digits are read, other text being null.
 */
export function integerOfDigits(db: Kysely<Database>, text: RawBuilder<unknown>): RawBuilder<number | string | null> {
  return isPostgres(db) ? sql`(case when ${text} ~ '^[0-9]{1,18}$' then cast(${text} as bigint) end)` : sql`cast(${text} as integer)`
}

/**
 * `query` locking the rows it reads until its transaction ends, so a read-modify-write on them is
 * exactly one at a time across replicas. FOR NO KEY UPDATE, not FOR UPDATE: no change rewrites a
 * key, and inserts of rows referring to a locked one (a merchant's payments) need not wait. SQLite
 * has one writer, whose transaction already holds the whole database, and no such clause.
 */
export function forUpdate<Q extends { forNoKeyUpdate(): Q }>(db: Kysely<Database>, query: Q): Q {
  return isPostgres(db) ? query.forNoKeyUpdate() : query
}

/**
 * `query` claiming the rows of `table` it reads, inside a transaction on PostgreSQL (FOR UPDATE OF
 * `table` SKIP LOCKED): rows another transaction holds are passed over, not waited for, so
 * replicas sweeping together each take different due rows. Outside a transaction there is nothing
 * to hold a claim, and SQLite's one writer already sweeps alone: a plain read.
 */
export function skipLocked<TB extends keyof Database & string, O>(
  db: Kysely<Database>,
  query: SelectQueryBuilder<Database, TB, O>,
  table: TB,
): SelectQueryBuilder<Database, TB, O> {
  return isPostgres(db) && db.isTransaction ? query.forUpdate([table]).skipLocked() : query
}
