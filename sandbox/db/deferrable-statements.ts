// Which compiled statements a PostgreSQL transaction may send later, with its COMMIT
// (postgres-deferred-writes.ts). Apart from it so that marking one, as statement.ts does on every
// backend, loads no part of the PostgreSQL backend at an SQLite start.
import type { CompiledQuery } from 'kysely'

const deferrable = new WeakSet<CompiledQuery>()

/** Marks `query` (a write whose answer its caller does not read) as one a PostgreSQL transaction may send later. */
export function markDeferrable<Q extends CompiledQuery>(query: Q): Q {
  deferrable.add(query)
  return query
}

export function isDeferrable(query: CompiledQuery): boolean {
  return deferrable.has(query)
}
