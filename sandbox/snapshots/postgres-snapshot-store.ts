// Snapshots on PostgreSQL: each a schema holding a copy of every sandbox table, taken in one
// REPEATABLE READ transaction while writers go on; a restore copies back in one transaction, so
// readers of every replica see the old state or the new, never a mix.
import { createHash, randomBytes } from 'node:crypto'
import { sql, type Kysely, type RawBuilder, type Transaction } from 'kysely'
import { announce, inOneSnapshot, onAnnouncement, openDatabase, runTransaction, type SandboxDb } from '../db/database.js'
import { errorCode, SQLSTATE } from '../db/error-codes.js'
import { postgresMigrationProvider } from '../db/migrations/index.js'
import { quoteIdentifier } from '../db/postgres-database.js'
import type { Database } from '../db/schema.js'
import { readState, writeState } from '../state/sandbox-state.js'
import { PostgresServingBarrier } from './postgres-serving-barrier.js'
import { SnapshotError, type SnapshotInfo, type SnapshotStore, type StateReplacement, type StateSource } from './snapshot-store.js'

const SNAPSHOT_SCHEMA_PREFIX = 'paybox_snapshot_'
const INFO_TABLE = 'paybox_snapshot_info'
/** Kysely's own tables: the schema's version, which a snapshot records but a restore never overwrites. */
const MIGRATION_TABLES = ['kysely_migration', 'kysely_migration_lock']
/**
 * The sandbox's own, not its state's: a snapshot neither takes nor restores them. The egress policy
 * every replica enforces is never, even between a copy and the cores' restart, a snapshot's.
 */
const OUTSIDE_STATE_TABLES = [...MIGRATION_TABLES, 'egress_policy']
/** What a replica announces when it replaced the state (database.ts announce). */
const STATE_REPLACED_TOPIC = 'state-replaced'

// Named by a hash: snapshot names may hold capitals, dots and dashes and run past PostgreSQL's 63-byte identifiers.
export function snapshotSchema(name: string): string {
  return `${SNAPSHOT_SCHEMA_PREFIX}${createHash('sha256').update(name).digest('hex').slice(0, 40)}`
}

interface InfoRow {
  name: string
  size: number
  created_at: string
  migrations: string
}

type Db = Kysely<Database>
const any = (db: Db) => db as unknown as Kysely<Record<string, Record<string, unknown>>>

export class PostgresSnapshotStore implements SnapshotStore {
  readonly barrier: PostgresServingBarrier

  constructor(
    private readonly url: string,
    private readonly timeoutMs?: number,
    pauseTimeoutMs?: number,
  ) {
    this.barrier = new PostgresServingBarrier(url, pauseTimeoutMs)
  }

  async list(db: SandboxDb): Promise<SnapshotInfo[]> {
    const schemas = await snapshotSchemas(db)
    if (schemas.length === 0) return []
    const rows = await sql<InfoRow>`${sql.join(
      schemas.map((schema) => sql`select name, size, created_at from ${sql.table(`${schema}.${INFO_TABLE}`)}`),
      sql` union all `,
    )}`.execute(db)
    return rows.rows.map(asInfo).sort((a, b) => a.name.localeCompare(b.name))
  }

  async get(db: SandboxDb, name: string): Promise<SnapshotInfo> {
    return asInfo(await infoRow(db, name))
  }

  async save(db: SandboxDb, name: string, options: { replace?: boolean } = {}): Promise<SnapshotInfo> {
    try {
      return await this.#copyOut(db, name, options)
    } catch (error) {
      // Saved under the same name through another request (or replica) since this one looked.
      // A schema another transaction created first: committed before, or while this one waited.
      const code = errorCode(error)
      if (code === SQLSTATE.uniqueViolation || code === SQLSTATE.duplicateSchema)
        throw new SnapshotError('exists', `A snapshot named "${name}" was being saved by another request meanwhile`)
      throw error
    }
  }

  /**
   * Copies every table in one REPEATABLE READ transaction (inOneSnapshot): every copy is of the
   * same moment, and writes of every replica go on meanwhile. It writes the snapshot's own schema
   * only, no sandbox row, so it needs no row lock either.
   */
  #copyOut(db: SandboxDb, name: string, options: { replace?: boolean }): Promise<SnapshotInfo> {
    const schema = snapshotSchema(name)
    return inOneSnapshot(db, async (trx) => {
      const tables = await sandboxTables(trx)
      if (await schemaExists(trx, schema)) {
        if (!options.replace) throw new SnapshotError('exists', `A snapshot named "${name}" exists already`)
        await sql`drop schema ${sql.id(schema)} cascade`.execute(trx)
      }
      await sql`create schema ${sql.id(schema)}`.execute(trx)
      for (const table of tables) await sql`create table ${sql.table(`${schema}.${table}`)} as table ${sql.table(table)}`.execute(trx)
      const migrations = await any(trx).selectFrom('kysely_migration').select('name').orderBy('name').execute()
      const { rows } = await sql<{ size: number }>`select coalesce(sum(pg_total_relation_size(c.oid)), 0)::bigint as size
        from pg_class c join pg_namespace n on n.oid = c.relnamespace where n.nspname = ${schema} and c.relkind = 'r'`.execute(trx)
      const info: InfoRow = {
        name,
        size: rows[0]?.size ?? 0,
        created_at: new Date().toISOString(),
        migrations: JSON.stringify(migrations.map((row) => row.name)),
      }
      await sql`create table ${sql.table(`${schema}.${INFO_TABLE}`)} (name text not null, size bigint not null, created_at text not null, migrations text not null)`.execute(
        trx,
      )
      await any(trx)
        .insertInto(`${schema}.${INFO_TABLE}`)
        .values({ ...info })
        .execute()
      return asInfo(info)
    })
  }

  async remove(db: SandboxDb, name: string): Promise<void> {
    await runTransaction(db, async (trx) => {
      await infoRow(trx, name)
      await sql`drop schema ${sql.id(snapshotSchema(name))} cascade`.execute(trx)
    })
  }

  async check(db: SandboxDb, name: string): Promise<void> {
    const info = await infoRow(db, name)
    const known = new Set(Object.keys(await postgresMigrationProvider.getMigrations()))
    const taken = JSON.parse(info.migrations) as string[]
    const unknown = taken.filter((migration) => !known.has(migration))
    if (unknown.length > 0) throw new SnapshotError('unusable', `Snapshot "${name}" comes from a newer paybox (migration ${unknown[0]})`)
    // Rows are copied into the tables as they are now: a snapshot of an older schema would not fit them.
    const applied = await any(db).selectFrom('kysely_migration').select('name').execute()
    const later = applied.map((row) => row.name as string).find((migration) => !taken.includes(migration))
    if (later !== undefined)
      throw new SnapshotError(
        'unusable',
        `Snapshot "${name}" was taken before migration ${later}: on PostgreSQL it cannot be restored after it`,
      )
    const schema = snapshotSchema(name)
    for (const table of await sandboxTables(db)) {
      if (!(await tableExists(db, schema, table))) throw new SnapshotError('unusable', `Snapshot "${name}" lacks the table ${table}`)
    }
    const genesis = await sql`select 1 from ${sql.table(`${schema}.sandbox_state`)} where key = 'admin_token'`.execute(db)
    if (genesis.rows.length === 0) throw new SnapshotError('unusable', `Snapshot "${name}" holds no sandbox`)
  }

  async beginReplacement(): Promise<StateReplacement> {
    return {
      replace: async (source) => {
        const db = await this.reopen()
        try {
          await this.#copyIn(db, source)
          return db
        } catch (error) {
          await db.destroy()
          throw error
        }
      },
      commit: () => {},
      // A failed copy changed nothing; after a failed start the copied state stays (it committed).
      rollback: () => this.reopen(),
    }
  }

  reopen(): Promise<SandboxDb> {
    return openDatabase({ file: this.url, busyTimeoutMs: this.timeoutMs })
  }

  onReplacedElsewhere(db: SandboxDb, listener: () => void): () => void {
    return onAnnouncement(db, STATE_REPLACED_TOPIC, listener)
  }

  /** Replaces the sandbox's rows with the snapshot's, or with a fresh genesis built beside them first. */
  async #copyIn(db: SandboxDb, source: StateSource): Promise<void> {
    if ('snapshot' in source) return copyState(db, snapshotSchema(source.snapshot))
    // The genesis is built in a scratch schema, then copied in as a snapshot is: built in the
    // sandbox's own tables, it would be seen half made (or the sandbox empty) meanwhile.
    const scratch = `paybox_genesis_${randomBytes(8).toString('hex')}`
    try {
      const built = await openDatabase({ file: this.url, busyTimeoutMs: this.timeoutMs, postgresSchema: scratch })
      try {
        await source.genesis(built)
      } finally {
        await built.destroy()
      }
      await copyState(db, scratch)
    } finally {
      await sql`drop schema if exists ${sql.id(scratch)} cascade`.execute(db)
    }
  }
}

// The count tables are copied as they are, their triggers on payments off meanwhile.
async function copyState(db: SandboxDb, schema: string): Promise<void> {
  await runTransaction(db, async (trx) => {
    const tables = await sandboxTables(trx)
    const boots = Number((await readState(trx, 'boot_count')) ?? '0')
    const generation = Number((await readState(trx, 'state_generation')) ?? '0')
    // TRUNCATE locks every table for the rest of the transaction: readers wait for the new state.
    await sql`truncate table ${sql.join(tables.map((table) => sql.table(table)))} restart identity`.execute(trx)
    const triggered = await tablesWithUserTriggers(trx)
    for (const table of triggered) await sql`alter table ${sql.table(table)} disable trigger user`.execute(trx)
    for (const table of await parentsFirst(trx, tables)) {
      const columns = sql.join((await columnsOf(trx, table)).map((column) => sql.id(column)))
      await sql`insert into ${sql.table(table)} (${columns}) overriding system value
        select ${columns} from ${sql.table(`${schema}.${table}`)}`.execute(trx)
    }
    for (const table of triggered) await sql`alter table ${sql.table(table)} enable trigger user`.execute(trx)
    for (const { table, column } of await identityColumns(trx)) {
      await sql`select setval(pg_get_serial_sequence(${quoteIdentifier(table)}, ${column}),
        coalesce((select max(${sql.id(column)}) from ${sql.table(table)}), 0) + 1, false)`.execute(trx)
    }
    // The boot counter keys each core's seeded random stream: it goes on from the database's, not the
    // snapshot's, so no core reuses a stream another (not yet restarted) replica may still draw from.
    await writeState(trx, 'boot_count', String(Math.max(boots, Number((await readState(trx, 'boot_count')) ?? '0'))))
    // Moves on from the database's (not the snapshot's): a replica compares it with its core's.
    await writeState(trx, 'state_generation', String(generation + 1))
    await announce(db, trx, STATE_REPLACED_TOPIC)
  })
}

function asInfo(row: Pick<InfoRow, 'name' | 'size' | 'created_at'>): SnapshotInfo {
  return { name: row.name, size: Number(row.size), createdAt: row.created_at }
}

async function infoRow(db: Db, name: string): Promise<InfoRow> {
  const schema = snapshotSchema(name)
  if (!(await tableExists(db, schema, INFO_TABLE))) throw new SnapshotError('not_found', `No snapshot named "${name}"`)
  const { rows } = await sql<InfoRow>`select name, size, created_at, migrations from ${sql.table(`${schema}.${INFO_TABLE}`)}`.execute(db)
  const row = rows[0]
  // A hash shared by two names would be a snapshot of the other name: not this one.
  if (row?.name !== name) throw new SnapshotError('not_found', `No snapshot named "${name}"`)
  return row
}

/** The schemas of complete snapshots (their info row is written last). */
async function snapshotSchemas(db: Db): Promise<string[]> {
  const { rows } = await sql<{ schema: string }>`select n.nspname as schema from pg_namespace n
    join pg_class c on c.relnamespace = n.oid and c.relname = ${INFO_TABLE}
    where n.nspname like ${`${SNAPSHOT_SCHEMA_PREFIX.replaceAll('_', '\\_')}%`} order by 1`.execute(db)
  return rows.map((row) => row.schema)
}

async function schemaExists(db: Db, schema: string): Promise<boolean> {
  const { rows } = await sql`select 1 from pg_namespace where nspname = ${schema}`.execute(db)
  return rows.length > 0
}

async function tableExists(db: Db, schema: string, table: string): Promise<boolean> {
  const { rows } = await sql`select 1 from pg_class c join pg_namespace n on n.oid = c.relnamespace
    where n.nspname = ${schema} and c.relname = ${table} and c.relkind = 'r'`.execute(db)
  return rows.length > 0
}

const inSandboxSchema: RawBuilder<unknown> = sql`(select oid from pg_namespace where nspname = current_schema())`

async function sandboxTables(db: Db): Promise<string[]> {
  const { rows } = await sql<{ table: string }>`select relname as table from pg_class
    where relnamespace = ${inSandboxSchema} and relkind = 'r' order by relname`.execute(db)
  return rows.map((row) => row.table).filter((table) => !OUTSIDE_STATE_TABLES.includes(table))
}

/** The tables with triggers of their own (not those behind foreign keys): payments, whose triggers keep the counts. */
async function tablesWithUserTriggers(trx: Transaction<Database>): Promise<string[]> {
  const { rows } = await sql<{ table: string }>`select distinct c.relname as table from pg_trigger t
    join pg_class c on c.oid = t.tgrelid where c.relnamespace = ${inSandboxSchema} and not t.tgisinternal order by 1`.execute(trx)
  return rows.map((row) => row.table)
}

/** `tables` ordered so that each comes after the tables its foreign keys name. */
async function parentsFirst(trx: Transaction<Database>, tables: string[]): Promise<string[]> {
  const { rows } = await sql<{ child: string; parent: string }>`select child.relname as child, parent.relname as parent
    from pg_constraint k join pg_class child on child.oid = k.conrelid join pg_class parent on parent.oid = k.confrelid
    where k.contype = 'f' and k.connamespace = ${inSandboxSchema}`.execute(trx)
  const ordered: string[] = []
  const visit = (table: string, path: Set<string>) => {
    if (ordered.includes(table) || path.has(table)) return
    path.add(table)
    for (const edge of rows) if (edge.child === table && edge.parent !== table) visit(edge.parent, path)
    ordered.push(table)
  }
  for (const table of tables) visit(table, new Set())
  return ordered.filter((table) => tables.includes(table))
}

async function columnsOf(trx: Transaction<Database>, table: string): Promise<string[]> {
  const { rows } = await sql<{ column: string }>`select attname as column from pg_attribute
    where attrelid = ${quoteIdentifier(table)}::regclass and attnum > 0 and not attisdropped and attgenerated = ''
    order by attnum`.execute(trx)
  return rows.map((row) => row.column)
}

/** Identity columns (payment_events.arrival, ledger_accounts.rowid), whose sequences go on past the copied rows. */
async function identityColumns(trx: Transaction<Database>): Promise<Array<{ table: string; column: string }>> {
  const { rows } = await sql<{ table: string; column: string }>`select c.relname as table, a.attname as column
    from pg_attribute a join pg_class c on c.oid = a.attrelid
    where c.relnamespace = ${inSandboxSchema} and c.relkind = 'r' and a.attidentity <> '' and not a.attisdropped`.execute(trx)
  return rows.filter((row) => !MIGRATION_TABLES.includes(row.table))
}
