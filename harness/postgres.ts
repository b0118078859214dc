// Throwaway PostgreSQL databases, one per suite on PAYBOX_TEST_POSTGRES_URL's cluster, so suites
// running in parallel never share state.
import crypto from 'node:crypto'
import { execFile } from 'node:child_process'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { promisify } from 'node:util'
import pg from 'pg'
import { redactDatabaseLocation } from '../src/database-location.js'
import { queryFromOutside } from './outside-db.js'

const execFileAsync = promisify(execFile)

/** The environment variable holding the cluster's admin URL (a superuser, any database). */
export const POSTGRES_URL_ENV = 'PAYBOX_TEST_POSTGRES_URL'

/** The URL of the PostgreSQL cluster the tests may create databases on, if one was given. */
export function postgresAdminUrl(): string | undefined {
  return process.env[POSTGRES_URL_ENV] || undefined
}

export interface TestDatabase {
  /** The database's URL: the admin URL with its path replaced by the database's name. */
  url: string
  name: string
  /** Drops the database, closing whatever connections are still open on it; safe to call twice. */
  drop(): Promise<void>
}

// A name that needs no quoting or URL encoding anywhere (it is quoted all the same). The random
// suffix adds 13 characters, and PostgreSQL silently truncates names beyond 63 bytes.
const PREFIX = /^[a-z_][a-z0-9_]{0,49}$/

/** C collation, so that text sorts byte-wise as in SQLite. */
export async function createTestDatabase(prefix = 'paybox_test', adminUrl = postgresAdminUrl()): Promise<TestDatabase> {
  if (!adminUrl)
    throw new Error(
      `${POSTGRES_URL_ENV} is not set: start PostgreSQL with \`eval "$(scripts/postgres-dev.sh start)"\` (or give the URL of a cluster where you may create databases)`,
    )
  if (!PREFIX.test(prefix))
    throw new Error(`Test database prefix ${JSON.stringify(prefix)} is not 1 to 50 of [a-z0-9_] starting with a letter or _`)
  const name = `${prefix}_${crypto.randomBytes(6).toString('hex')}`
  await withAdminClient(adminUrl, async (client) => {
    // From PostgreSQL 15 a cluster may default to ICU collations, which a new database inherits
    // unless told otherwise: then LC_COLLATE 'C' would be recorded but not used.
    const { rows } = await client.query<{ version: string }>(`SELECT current_setting('server_version_num') AS version`)
    const provider = Number(rows[0]?.version) >= 150000 ? ' LOCALE_PROVIDER libc' : ''
    await client.query(
      `CREATE DATABASE ${client.escapeIdentifier(name)} TEMPLATE template0 ENCODING 'UTF8'${provider} LC_COLLATE 'C' LC_CTYPE 'C'`,
    )
  })
  const url = new URL(adminUrl)
  url.pathname = `/${name}`
  return {
    url: url.href,
    name,
    drop: () =>
      withAdminClient(adminUrl, (client) => client.query(`DROP DATABASE IF EXISTS ${client.escapeIdentifier(name)} WITH (FORCE)`)),
  }
}

async function withAdminClient(adminUrl: string, use: (client: pg.Client) => Promise<unknown>): Promise<void> {
  const client = new pg.Client({ connectionString: adminUrl })
  try {
    await client.connect()
  } catch (error) {
    throw new Error(
      `Cannot connect to the PostgreSQL of ${POSTGRES_URL_ENV} (${redactDatabaseLocation(adminUrl)}): ${(error as Error).message}`,
      {
        cause: error,
      },
    )
  }
  try {
    await use(client)
  } finally {
    await client.end()
  }
}

/** A PostgreSQL cluster of a test's own, which it may stop and start again (outage tests). */
export interface PrivateCluster {
  /** Its admin URL (the postgres database). */
  adminUrl: string
  /** Stops the server, keeping its data and port. */
  pause(): Promise<void>
  resume(): Promise<void>
  remove(): Promise<void>
}

const SCRIPT = fileURLToPath(new URL('../scripts/postgres-dev.sh', import.meta.url))

/** Starts a throwaway cluster through scripts/postgres-dev.sh, with a state file of its own. */
export async function startPrivateCluster(): Promise<PrivateCluster> {
  const state = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'paybox-cluster-')), 'cluster.state')
  const run = async (command: string) =>
    (await execFileAsync('bash', [SCRIPT, command], { env: { ...process.env, PAYBOX_POSTGRES_STATE: state } })).stdout
  const line = (await run('start')).trim()
  const adminUrl = line.slice(line.indexOf('=') + 1)
  return {
    adminUrl,
    pause: async () => void (await run('pause')),
    resume: async () => void (await run('resume')),
    remove: async () => void (await run('stop')),
  }
}

/**
 * Adds `copies` copies of merchant `merchantId` to the sandbox's database at `url` (same secret;
 * id and API key suffixed `_1`, `_2`, …), so that deliveries spread over merchants with a cap
 * each. Returns the merchant's id and its copies'.
 */
export async function copyMerchant(url: string, merchantId: string, copies: number): Promise<string[]> {
  const rows = await queryFromOutside<{ id: string }>(
    url,
    `insert into merchants select (jsonb_populate_record(m, jsonb_build_object('id', m.id || '_' || k, 'api_key', m.api_key || '_' || k))).*
      from merchants m, generate_series(1, ?::int) k where m.id = ? returning id`,
    [copies, merchantId],
  )
  return [merchantId, ...rows.map((row) => row.id)]
}

/** Manual VACUUMs or ANALYZEs of `table` so far (autovacuum's are counted apart), up to a second behind. */
export async function maintenanceCount(url: string, what: 'vacuum' | 'analyze', table: string): Promise<number> {
  const rows = await queryFromOutside<{ count: number }>(url, `select pg_stat_get_${what}_count(?::regclass)::int as count`, [table])
  return rows[0]!.count
}
