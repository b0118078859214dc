// The hot paths' queries: each written once as a kysely query, built and compiled on first use,
// then run with each call's values through the driver's cached prepared statement (runStatement),
// without kysely's per-query layers. Building a query costs more than SQLite running it.
import { CompiledQuery, type Kysely } from 'kysely'
import { isPostgres } from './database.js'
import { markDeferrable } from './deferrable-statements.js'
import type { Database } from './schema.js'
import { runStatement } from './sqlite-driver.js'

/** Stands for one named parameter while the query is built: its place in the compiled parameters says where it binds. */
class Placeholder {
  constructor(readonly name: string) {}
}

interface Compiled {
  sql: string
  names: string[]
}

/**
 * A statement over named parameters: `build` receives placeholders for them, not values, and is
 * called once per set of defined parameter names (a parameter left undefined is left out, as
 * kysely's values() does). The returned function runs it on a database or its transaction and
 * gives the rows (none for a write).
 *
 * `deferred`: a write whose answer the caller does not read and whose error it does not catch. In
 * a PostgreSQL write transaction it goes with the next statement or the COMMIT, not in a round
 * trip of its own (postgres-deferred-writes.ts), and answers no rows; elsewhere it runs at once.
 * Its `query` gives the statement as it would be sent (a transaction's prefetch: database.ts).
 */
export function defineStatement<P extends object, R = never>(
  build: (db: Kysely<Database>, params: P) => CompiledQuery<R>,
  options: { deferred?: boolean } = {},
): Statement<P, R> {
  // Per adapter (SQLite, PostgreSQL): each writes its own SQL for the same query.
  const compiledByAdapter = new Map<unknown, Map<string, Compiled>>()
  const compiledFor = (db: Kysely<Database>, params: P) => {
    const adapter = db.getExecutor().adapter.constructor
    let compiledByNames = compiledByAdapter.get(adapter)
    if (compiledByNames === undefined) compiledByAdapter.set(adapter, (compiledByNames = new Map()))
    const defined = (Object.keys(params) as Array<keyof P & string>).filter((name) => params[name] !== undefined)
    const signature = defined.join()
    let compiled = compiledByNames.get(signature)
    if (compiled === undefined) {
      compiled = compile(db, build, defined)
      compiledByNames.set(signature, compiled)
    }
    return { sql: compiled.sql, values: compiled.names.map((name) => params[name as keyof P]) }
  }
  const run = async (db: Kysely<Database>, params: P) => {
    const { sql, values } = compiledFor(db, params)
    if (options.deferred === true && db.isTransaction && isPostgres(db))
      return (await db.executeQuery<R>(markDeferrable(CompiledQuery.raw(sql, values)))).rows
    return (await runStatement<R>(db, sql, values)).rows
  }
  return Object.assign(run, {
    query: (db: Kysely<Database>, params: P) => {
      const { sql, values } = compiledFor(db, params)
      return CompiledQuery.raw(sql, values) as CompiledQuery<R>
    },
  })
}

/** A defined statement: run with a database and its parameters; `query`: the statement as it would be sent. */
export type Statement<P, R> = ((db: Kysely<Database>, params: P) => Promise<R[]>) & {
  query(db: Kysely<Database>, params: P): CompiledQuery<R>
}

function compile<P extends object, R>(
  db: Kysely<Database>,
  build: (db: Kysely<Database>, params: P) => CompiledQuery<R>,
  names: string[],
): Compiled {
  const placeholders = Object.fromEntries(names.map((name) => [name, new Placeholder(name)])) as P
  const query = build(db, placeholders)
  return {
    sql: query.sql,
    names: query.parameters.map((parameter) => {
      if (!(parameter instanceof Placeholder))
        throw new Error(`A statement's query binds a value that is not one of its parameters: ${String(parameter)}`)
      return parameter.name
    }),
  }
}
