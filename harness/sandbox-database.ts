// A throwaway PostgreSQL database whose schema and genesis merchants a sandbox made before it
// left, so that a suite drives the webhook repositories or a dispatcher of its own on it, with no
// dispatcher of the sandbox's claiming beside them.
import { startSandbox } from '../sandbox/server.js'
import { createTestDatabase, type TestDatabase } from './postgres.js'

export async function createSandboxDatabase(prefix: string): Promise<{ database: TestDatabase; merchantIds: string[] }> {
  const database = await createTestDatabase(prefix)
  const sandbox = await startSandbox({ port: 0, db: database.url, log: () => {}, ledgerClose: 'instant' })
  const merchantIds = sandbox.merchants.map((merchant) => merchant.id)
  await sandbox.stop()
  return { database, merchantIds }
}
