// Writes a PostgreSQL transaction sends with its COMMIT rather than each in a round trip of its
// own (issue #25): a POST /payments inserts its payment, its event and its idempotency record, none
// of whose answers the request reads. A statement marked deferrable (defineStatement's `deferred`)
// is kept, its parameters written as literals, and goes with the next statement that is not:
// before it, or, at the end, as one simple query `…; commit` (and, when the transaction's opening
// was a plain BEGIN that nothing has needed yet, `begin; …; commit`: one round trip in all).
// What a deferred write costs its caller: it answers no rows, and its error (a constraint) fails
// the transaction at that later statement, not where it was written.
import { CompiledQuery, type DatabaseConnection, type QueryResult } from 'kysely'
import pg from 'pg'

const deferrable = new WeakSet<CompiledQuery>()

/** Marks `query` (a write whose answer its caller does not read) as one a PostgreSQL transaction may send later. */
export function markDeferrable<Q extends CompiledQuery>(query: Q): Q {
  deferrable.add(query)
  return query
}

/**
 * `query` as one SQL text with its parameters as literals, or undefined if it cannot be: a value
 * other than text, a number or a boolean, text with U+0000 (the pool's guard answers that one 400),
 * or SQL with quotes of its own, where a `$n` might not be a parameter. Each literal is quoted, as
 * pg sends a parameter as text of no declared type: PostgreSQL infers the type from the context alike.
 */
export function inlineParameters(query: CompiledQuery): string | undefined {
  if (/['$]/.test(query.sql.replace(/\$\d+/g, ''))) return undefined
  const literals: string[] = []
  for (const value of query.parameters) {
    if (value === null || value === undefined) literals.push('null')
    else if (typeof value === 'string' && !value.includes('\0')) literals.push(pg.escapeLiteral(value))
    else if ((typeof value === 'number' && Number.isFinite(value)) || typeof value === 'boolean' || typeof value === 'bigint')
      literals.push(`'${String(value)}'`)
    else return undefined
  }
  return query.sql.replace(/\$(\d+)/g, (_, n: string) => literals[Number(n) - 1] ?? 'null')
}

/**
 * A transaction's connection that keeps its deferrable writes (and its opening, when that is a
 * plain BEGIN) until a statement needs them sent: any other statement, or `commit()`.
 */
export class DeferringConnection implements DatabaseConnection {
  readonly #pending: string[]
  /** Whether anything of the transaction was sent: something to roll back if it fails. */
  sent: boolean

  constructor(
    private readonly connection: DatabaseConnection,
    /** The opening, if it is to go with the first statement sent; undefined if it was sent already. */
    opening?: string,
  ) {
    this.#pending = opening === undefined ? [] : [opening]
    this.sent = opening === undefined
  }

  async executeQuery<R>(query: CompiledQuery): Promise<QueryResult<R>> {
    const text = deferrable.has(query) ? inlineParameters(query) : undefined
    if (text !== undefined) {
      this.#pending.push(text)
      return { rows: [] }
    }
    await this.#send()
    return this.connection.executeQuery<R>(query)
  }

  async *streamQuery<R>(query: CompiledQuery, chunkSize?: number): AsyncIterableIterator<QueryResult<R>> {
    await this.#send()
    yield* this.connection.streamQuery<R>(query, chunkSize)
  }

  /** Sends what is pending and COMMIT, in one round trip; nothing if nothing was sent or written. */
  async commit(): Promise<void> {
    if (!this.sent && this.#pending.length <= 1) return
    this.#pending.push('commit')
    await this.#send()
  }

  async #send(): Promise<void> {
    if (this.#pending.length === 0) return
    this.sent = true
    await this.connection.executeQuery(CompiledQuery.raw(this.#pending.splice(0).join('; ')))
  }
}
