// What the PostgreSQL bench sections share: databases of their own on the bench's cluster, a
// client for a look inside, and a replica paused while it must not take the machine's CPU.
import pg from 'pg'
import { createTestDatabase, type TestDatabase } from '../../harness/postgres.js'
import { paymentRequest } from './payment-request.js'
import { runLoadSpread, type Credentials, type LoadResult } from './load.js'
import type { ServerProcess } from './processes.js'

/** Connections of the PostgreSQL write loads. */
export const WRITE_CONNECTIONS = 50

/** Runs `use` with databases of its own on the cluster, dropped afterwards whatever happens. */
export async function withDatabases<T>(adminUrl: string, prefixes: string[], use: (databases: TestDatabase[]) => Promise<T>): Promise<T> {
  const databases: TestDatabase[] = []
  try {
    for (const prefix of prefixes) databases.push(await createTestDatabase(prefix, adminUrl))
    return await use(databases)
  } finally {
    for (const database of databases) await database.drop().catch(() => {})
  }
}

export async function withClient<T>(url: string, use: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: url, application_name: 'paybox-bench' })
  await client.connect()
  try {
    return await use(client)
  } finally {
    await client.end()
  }
}

/**
 * A replica put to sleep (SIGSTOP) while it must not take the machine's CPU, and woken (SIGCONT).
 * It is stopped only after the requests a load left in flight (autocannon ends without waiting
 * for them) have finished: stopped inside a transaction, it would hold that transaction's locks.
 */
export async function pause(server: ServerProcess<unknown>, paused: boolean): Promise<void> {
  if (paused) await new Promise((resolve) => setTimeout(resolve, 1_000))
  server.child.kill(paused ? 'SIGSTOP' : 'SIGCONT')
}

/** POST /payments at WRITE_CONNECTIONS for `seconds`, spread over the replicas at `urls`; each with a fresh Idempotency-Key if `key` is given. */
export function postPayments(credentials: Credentials, urls: string[], seconds: number, key?: () => string): Promise<LoadResult> {
  return runLoadSpread(
    {
      credentials,
      connections: WRITE_CONNECTIONS,
      durationSeconds: seconds,
      method: 'POST',
      path: () => '/payments',
      body: (n) => JSON.stringify(paymentRequest(n)),
      ...(key === undefined ? {} : { headers: () => ({ 'idempotency-key': key() }) }),
    },
    urls,
  )
}
