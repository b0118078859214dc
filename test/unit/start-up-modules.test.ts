// What an SQLite sandbox's start does not load (docs/performance.md, "Third round"): PostgreSQL's
// driver, and better-sse (with the node:http2 it loads) until the first event stream. Run in a
// process of its own, with a loader hook that logs every module loaded.
import { execFileSync } from 'node:child_process'
import fs from 'node:fs'
import path from 'node:path'
import { pathToFileURL } from 'node:url'
import { describe, expect, it } from 'vitest'
import { ROOT } from '../../harness/cli.js'
import { temporaryDir } from '../../harness/sandbox.js'

describe("an SQLite sandbox's start", () => {
  it('loads neither the PostgreSQL driver nor better-sse; the first event stream loads better-sse', () => {
    const dir = temporaryDir('paybox-start-modules-')
    const log = path.join(dir, 'loaded.txt')
    const hooks = `import { appendFileSync } from 'node:fs'
export async function load(url, context, next) { appendFileSync(${JSON.stringify(log)}, url + '\\n'); return next(url, context) }`
    const preload = path.join(dir, 'log-modules.mjs')
    fs.writeFileSync(
      preload,
      `import { register } from 'node:module'\nregister(${JSON.stringify(`data:text/javascript,${encodeURIComponent(hooks)}`)})\n`,
    )
    const server = pathToFileURL(path.join(ROOT, 'sandbox', 'server.ts')).href
    const script = `import { appendFileSync } from 'node:fs'
const { startSandbox } = await import(${JSON.stringify(server)})
const sandbox = await startSandbox({ port: 0, db: ':memory:', log: () => {}, ledgerClose: 'instant' })
appendFileSync(${JSON.stringify(log)}, 'STARTED\\n')
const stream = await fetch(sandbox.url + '/sandbox/request-logs/stream', { headers: { 'x-sandbox-admin-token': sandbox.identity.adminToken } })
const reader = stream.body.getReader()
await reader.read()
await reader.cancel()
await sandbox.stop()`
    execFileSync(process.execPath, ['--import', 'tsx', '--import', pathToFileURL(preload).href, '--input-type=module', '-e', script], {
      cwd: ROOT,
    })
    const [atStart, afterStream] = fs.readFileSync(log, 'utf8').split('STARTED\n') as [string, string]
    const fromPackage = (modules: string, name: string) => modules.split('\n').filter((url) => url.includes(`/node_modules/${name}/`))
    expect(fromPackage(atStart, 'better-sqlite3')).not.toEqual([])
    expect(fromPackage(atStart, 'pg')).toEqual([])
    expect(fromPackage(atStart, 'better-sse')).toEqual([])
    expect(fromPackage(afterStream, 'better-sse')).not.toEqual([])
  })
})
