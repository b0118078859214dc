// The harness's throwaway databases, on the real PostgreSQL of PAYBOX_TEST_POSTGRES_URL: each
// suite gets its own database, isolated from the others, collated byte-wise like SQLite, and
// gone once dropped.
import pg from 'pg'
import { afterAll, describe, expect, it, vi } from 'vitest'
import { createTestDatabase, postgresAdminUrl, type TestDatabase } from '../../harness/postgres.js'

const created: TestDatabase[] = []
afterAll(async () => {
  await Promise.all(created.map((database) => database.drop()))
})

async function newDatabase(prefix?: string): Promise<TestDatabase> {
  const database = await createTestDatabase(prefix)
  created.push(database)
  return database
}

async function query<Row extends pg.QueryResultRow>(url: string, sql: string, values: unknown[] = []): Promise<Row[]> {
  const client = new pg.Client({ connectionString: url })
  await client.connect()
  try {
    return (await client.query<Row>(sql, values)).rows
  } finally {
    await client.end()
  }
}

function adminUrl(): string {
  const url = postgresAdminUrl()
  if (!url) throw new Error('PAYBOX_TEST_POSTGRES_URL is not set: the postgres project only runs with it')
  return url
}

const databaseNamed = (name: string) => query<{ datname: string }>(adminUrl(), 'SELECT datname FROM pg_database WHERE datname = $1', [name])

describe('createTestDatabase', () => {
  it('gives each caller its own database, at a URL on the same cluster', async () => {
    const [a, b] = await Promise.all([newDatabase(), newDatabase()])
    expect(a.name).toMatch(/^paybox_test_[0-9a-f]{12}$/)
    expect(b.name).not.toBe(a.name)
    for (const database of [a, b]) {
      const url = new URL(database.url)
      const admin = new URL(adminUrl())
      expect({ host: url.host, user: url.username, path: url.pathname }).toEqual({
        host: admin.host,
        user: admin.username,
        path: `/${database.name}`,
      })
      expect(await query(database.url, 'SELECT current_database() AS name')).toEqual([{ name: database.name }])
      expect(await databaseNamed(database.name)).toHaveLength(1)
    }
  })

  it('keeps what one database holds out of another', async () => {
    const [a, b] = await Promise.all([newDatabase(), newDatabase()])
    await query(a.url, 'CREATE TABLE payments (id text PRIMARY KEY)')
    await query(a.url, `INSERT INTO payments VALUES ('pay_1')`)
    expect(await query(a.url, 'SELECT id FROM payments')).toEqual([{ id: 'pay_1' }])
    expect(await query(b.url, `SELECT to_regclass('public.payments') AS found`)).toEqual([{ found: null }])
    await expect(query(b.url, 'SELECT id FROM payments')).rejects.toThrow(/relation "payments" does not exist/)
  })

  it('makes a UTF-8 database that sorts text byte-wise, as SQLite does', async () => {
    const database = await newDatabase('paybox_collation')
    expect(database.name).toMatch(/^paybox_collation_[0-9a-f]{12}$/)
    const [settings] = await query(
      adminUrl(),
      'SELECT datcollate, datctype, pg_encoding_to_char(encoding) AS encoding FROM pg_database WHERE datname = $1',
      [database.name],
    )
    expect(settings).toEqual({ datcollate: 'C', datctype: 'C', encoding: 'UTF8' })
    // A collation-aware order ('en_US' and the like) puts 'a' before 'B'; byte order puts 'B' first.
    await query(database.url, 'CREATE TABLE names (name text NOT NULL)')
    await query(database.url, `INSERT INTO names VALUES ('a'), ('B'), ('é'), ('Z'), ('_')`)
    const sorted = await query<{ name: string }>(database.url, 'SELECT name FROM names ORDER BY name')
    expect(sorted.map((row) => row.name)).toEqual(['B', 'Z', '_', 'a', 'é'])
  })

  it('drops the database even while a connection is open on it, and a second drop is harmless', async () => {
    const database = await newDatabase()
    const open = new pg.Client({ connectionString: database.url })
    const terminated = new Promise<Error>((resolve) => open.on('error', resolve))
    await open.connect()
    try {
      expect((await open.query('SELECT current_database() AS name')).rows).toEqual([{ name: database.name }])
      await database.drop()
      expect(await databaseNamed(database.name)).toEqual([])
      expect((await terminated).message).toMatch(/terminat/)
      await expect(query(database.url, 'SELECT 1')).rejects.toThrow(/does not exist/)
      await database.drop()
    } finally {
      await open.end().catch(() => {})
    }
  })

  it('says how to start PostgreSQL when PAYBOX_TEST_POSTGRES_URL is not set', async () => {
    vi.stubEnv('PAYBOX_TEST_POSTGRES_URL', '')
    try {
      expect(postgresAdminUrl()).toBeUndefined()
      await expect(createTestDatabase()).rejects.toThrow(
        'PAYBOX_TEST_POSTGRES_URL is not set: start PostgreSQL with `eval "$(scripts/postgres-dev.sh start)"`',
      )
    } finally {
      vi.unstubAllEnvs()
    }
  })

  it('refuses a prefix that would need quoting or be truncated', async () => {
    await expect(createTestDatabase('Bad"Name')).rejects.toThrow(/prefix/)
    await expect(createTestDatabase('x'.repeat(51))).rejects.toThrow(/prefix/)
  })
})
