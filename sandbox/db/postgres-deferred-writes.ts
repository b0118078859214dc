// Writes a PostgreSQL transaction sends with its COMMIT rather than each in a round trip of its
// own (issue #25): a POST /payments inserts its payment, its event and its idempotency record, none
// of whose answers the request reads. A statement marked deferrable (defineStatement's `deferred`)
// is kept, its parameters written as literals, and goes with the next statement that is not:
// before it, or, at the end, as one simple query `…; commit` (and, when the transaction's opening
// was one whose answer nothing reads (BEGIN without a claim), `begin; …; commit`: one round trip).
// What a deferred write costs its caller: it answers no rows, and its error (a constraint) fails
// the transaction at that later statement, not where it was written.
import { CompiledQuery, type DatabaseConnection, type QueryResult } from 'kysely'
import pg from 'pg'
import { isDeferrable } from './deferrable-statements.js'

/** A statement's SQL cut at its parameters: `sql[i]`, parameter `at[i]`, … then the last `sql`. */
interface Template {
  sql: string[]
  at: number[]
}

/** Templates by SQL text (the deferrable statements are a few fixed texts); null: SQL with quotes of its own. */
const templates = new Map<string, Template | null>()
const MAX_TEMPLATES = 100

function templateOf(sql: string): Template | null {
  let template = templates.get(sql)
  if (template !== undefined) return template
  // A quote or a `$` of its own (a literal, dollar quoting) might hold a `$n` that is no parameter.
  template = /['$]/.test(sql.replace(/\$\d+/g, ''))
    ? null
    : { sql: sql.split(/\$\d+/), at: [...sql.matchAll(/\$(\d+)/g)].map((m) => Number(m[1]) - 1) }
  if (templates.size < MAX_TEMPLATES) templates.set(sql, template)
  return template
}

/**
 * `query` as one SQL text with its parameters as literals, or undefined if it cannot be: a value
 * other than text, a number or a boolean, text with U+0000 (the pool's guard answers that one 400),
 * or SQL with quotes of its own. Each literal is quoted, as pg sends a parameter as text of no
 * declared type: PostgreSQL infers the type from the context alike.
 */
export function inlineParameters(query: CompiledQuery): string | undefined {
  const template = templateOf(query.sql)
  if (template === null) return undefined
  const literals = literalsOf(template.at.map((at) => query.parameters[at]))
  if (literals === undefined) return undefined
  return literals.reduce((text, literal, i) => text + literal + template.sql[i + 1]!, template.sql[0]!)
}

/** Each value as an SQL literal, or undefined if one cannot be (a NUL, an object). */
function literalsOf(values: readonly unknown[]): string[] | undefined {
  const literals: string[] = []
  for (const value of values) {
    const literal = literalOf(value)
    if (literal === undefined) return undefined
    literals.push(literal)
  }
  return literals
}

function literalOf(value: unknown): string | undefined {
  if (value === null || value === undefined) return 'null'
  if (typeof value === 'string') return value.includes('\0') ? undefined : pg.escapeLiteral(value)
  if ((typeof value === 'number' && Number.isFinite(value)) || typeof value === 'boolean' || typeof value === 'bigint')
    return `'${String(value)}'`
  return undefined
}

/**
 * A deferred insert goes as `execute <name>(literals)` of a statement each connection prepares
 * once (withPreparations), not as its SQL with literals: PostgreSQL then parses, analyses and
 * plans a payment's insert once per connection instead of at every COMMIT. Only kysely's inserts
 * of values, every value a parameter, whose types PostgreSQL infers from their columns.
 */
const PREPARABLE = /^insert into ("?)(\w+)\1 \([^()]*\) values \((?:\$\d+, )*\$\d+\)$/
const PREPARED_PREFIX = 'paybox_deferred_'
const preparedNames = new Map<string, string | null>()
const preparedSql = new Map<string, string>()

function preparedName(sql: string): string | undefined {
  let name = preparedNames.get(sql)
  if (name === undefined) {
    const insert = PREPARABLE.exec(sql)
    name = insert === null || preparedSql.size >= MAX_TEMPLATES ? null : `${PREPARED_PREFIX}${preparedSql.size + 1}_${insert[2]!}`
    if (preparedNames.size < MAX_TEMPLATES) preparedNames.set(sql, name)
    if (name !== null) preparedSql.set(name, sql)
  }
  return name ?? undefined
}

/** A deferred write as text for a simple query: an EXECUTE of its prepared statement, or its SQL with literals; undefined if neither can be. */
export function deferredText(query: CompiledQuery): string | undefined {
  const name = preparedName(query.sql)
  if (name === undefined) return inlineParameters(query)
  const literals = literalsOf(query.parameters)
  return literals === undefined ? undefined : `execute ${name}(${literals.join(', ')})`
}

const EXECUTE_PREPARED = new RegExp(`execute (${PREPARED_PREFIX}\\w+)\\(`, 'g')

/**
 * `text` (a simple query) with the PREPARE of each deferred write it executes that the connection
 * lacks (`prepared`: the names it has), just before the first EXECUTE, so that it costs no round
 * trip; `added`: those names. PREPARE outlives a rolled-back transaction, as the session's.
 */
function withPreparations(text: string, prepared: ReadonlySet<string>): { text: string; added: string[] } {
  const first = text.indexOf(`execute ${PREPARED_PREFIX}`)
  if (first === -1) return { text, added: [] }
  const added: string[] = []
  for (const [, name] of text.slice(first).matchAll(EXECUTE_PREPARED)) {
    const sql = preparedSql.get(name!)
    if (sql !== undefined && !prepared.has(name!) && !added.includes(name!)) added.push(name!)
  }
  if (added.length === 0) return { text, added }
  const preparations = added.map((name) => `prepare ${name} as ${preparedSql.get(name)!}; `).join('')
  return { text: text.slice(0, first) + preparations + text.slice(first), added }
}

/** Lists the deferred writes prepared on a connection: after a failed query that executed some, which of its PREPAREs ran (or whether a statement was dropped) is unknown. */
const LIST_PREPARED = `select name from pg_prepared_statements where name like '${PREPARED_PREFIX}%'`

/**
 * The deferred writes one connection has prepared, for the simple queries it sends: each goes
 * with the PREPAREs it lacks (withPreparations). After a failed query that executed some, the
 * connection lists what it has before its next such query.
 */
export class ConnectionPreparations {
  #names = new Set<string>()
  #known = true

  /** Sends `text` through `run` (the connection's simple query), with the PREPAREs it needs. */
  async send<R>(text: string, run: (text: string) => Promise<R>): Promise<R> {
    if (!text.includes(`execute ${PREPARED_PREFIX}`)) return run(text)
    if (!this.#known) {
      const listed = (await run(LIST_PREPARED)) as { rows: Array<{ name: string }> }
      this.#names = new Set(listed.rows.map((row) => row.name))
      this.#known = true
    }
    const sent = withPreparations(text, this.#names)
    try {
      const result = await run(sent.text)
      for (const name of sent.added) this.#names.add(name)
      return result
    } catch (error) {
      this.#known = false
      throw error
    }
  }
}

function sameQuery(a: CompiledQuery, b: CompiledQuery): boolean {
  return a.sql === b.sql && a.parameters.length === b.parameters.length && a.parameters.every((value, i) => value === b.parameters[i])
}

/**
 * A transaction's connection that keeps its deferrable writes (and its opening, when nothing reads
 * its answer) until a statement needs them sent: any other statement, or `commit()`.
 */
export class DeferringConnection implements DatabaseConnection {
  readonly #pending: string[]
  #answer: { query: CompiledQuery; rows: unknown[] } | undefined
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

  /** The rows `query` answered in the opening (a prefetch): the next statement that is the same query gets them without a round trip. */
  answerOnce(query: CompiledQuery, rows: unknown[]): void {
    this.#answer = { query, rows }
  }

  async executeQuery<R>(query: CompiledQuery): Promise<QueryResult<R>> {
    const answer = this.#answer
    this.#answer = undefined
    if (answer !== undefined && sameQuery(answer.query, query)) return { rows: answer.rows as R[] }
    const text = isDeferrable(query) ? deferredText(query) : undefined
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
