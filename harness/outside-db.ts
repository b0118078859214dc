// Reads and writes a test sandbox's database over a connection of its own, as another process
// would: SQLite through its file, PostgreSQL through its URL. SQL uses `?` placeholders.
import BetterSqlite3 from 'better-sqlite3'
import pg from 'pg'
import { NUMBERS_AS_NUMBERS } from '../sandbox/db/postgres-database.js'

export async function queryFromOutside<T>(location: string, text: string, params: unknown[] = []): Promise<T[]> {
  if (/^postgres(ql)?:\/\//i.test(location)) {
    const client = new pg.Client({ connectionString: location })
    await client.connect()
    try {
      let n = 0
      const numbered = text.replace(/\?/g, () => `$${++n}`)
      // int8 and numeric as numbers, as the sandbox reads them (and SQLite gives them).
      const { rows } = await client.query({ text: numbered, values: params, types: NUMBERS_AS_NUMBERS })
      return rows as T[]
    } finally {
      await client.end()
    }
  }
  const db = new BetterSqlite3(location)
  try {
    db.pragma('busy_timeout = 5000')
    const statement = db.prepare(text)
    return statement.reader ? (statement.all(...params) as T[]) : (statement.run(...params), [])
  } finally {
    db.close()
  }
}
