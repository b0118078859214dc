// What an SQLite sandbox's start does not load (docs/performance.md, "Third round"): PostgreSQL's
// driver, and better-sse (with the node:http2 it loads) until the first event stream. Run in a
// process of its own, which logs every module it loads.
import { execFileSync } from 'node:child_process'
import fs from 'node:fs'
import path from 'node:path'
import { pathToFileURL } from 'node:url'
import { describe, expect, it } from 'vitest'
import { ROOT } from '../../harness/cli.js'
import { fromPackage, moduleLog } from '../../harness/module-log.js'

describe("an SQLite sandbox's start", () => {
  it('loads neither the PostgreSQL driver, better-sse nor the OpenAPI document; the first event stream loads better-sse', () => {
    const log = moduleLog()
    const server = pathToFileURL(path.join(ROOT, 'sandbox', 'server.ts')).href
    const script = `import { appendFileSync } from 'node:fs'
const { startSandbox } = await import(${JSON.stringify(server)})
const sandbox = await startSandbox({ port: 0, db: ':memory:', log: () => {}, ledgerClose: 'instant' })
appendFileSync(${JSON.stringify(log.file)}, 'STARTED\\n')
const stream = await fetch(sandbox.url + '/sandbox/request-logs/stream', { headers: { 'x-sandbox-admin-token': sandbox.identity.adminToken } })
const reader = stream.body.getReader()
await reader.read()
await reader.cancel()
await sandbox.stop()`
    execFileSync(process.execPath, ['--import', 'tsx', '--import', log.preload, '--input-type=module', '-e', script], { cwd: ROOT })
    const [atStart, afterStream] = fs
      .readFileSync(log.file, 'utf8')
      .split('STARTED\n')
      .map((part) => part.split('\n')) as [string[], string[]]
    expect(fromPackage(atStart, 'better-sqlite3')).not.toEqual([])
    expect(fromPackage(atStart, 'pg')).toEqual([])
    expect(fromPackage(atStart, 'better-sse')).toEqual([])
    // The document loads with the first GET /openapi.json: routing reads the contract's wire, and a
    // route its resource's contract file only, for the bodies it parses (which sit beside the answers).
    expect(
      atStart.filter((module) =>
        /\/(src\/api\/contract\/index|sandbox\/openapi\/(documented-operations|openapi-document))\.ts$/.test(module),
      ),
    ).toEqual([])
    expect(fromPackage(afterStream, 'better-sse')).not.toEqual([])
  })
})
