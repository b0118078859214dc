// `paybox openapi`: fetches the sandbox's OpenAPI document with no credentials, prints it or
// saves it, and fails in one line when there is no sandbox to ask.
import fs from 'node:fs'
import path from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { isolatedEnv, linesOf, runCli, runCliJson } from '../../harness/cli.js'
import { rawRequest, startTestSandbox, temporaryDir, type TestSandbox } from '../../harness/sandbox.js'

describe('paybox openapi', () => {
  let sandbox: TestSandbox
  let served: Record<string, unknown>
  // Only the base URL: the document needs no keys.
  const env = () => isolatedEnv({ PAYBOX_BASE_URL: sandbox.url })

  beforeAll(async () => {
    sandbox = await startTestSandbox()
    served = (await rawRequest(sandbox.url, { method: 'GET', path: '/openapi.json' })).json as Record<string, unknown>
  })
  afterAll(() => sandbox.stop())

  it('prints the served document on stdout, without credentials', async () => {
    const { stdout, stderr, exitCode } = await runCli(['openapi'], env())
    expect(exitCode).toBe(0)
    expect(stderr).toBe('')
    expect(JSON.parse(stdout)).toEqual(served)
    expect(served).toMatchObject({ openapi: '3.1.0', servers: [{ url: sandbox.url }] })
  })

  it('--json prints the same document', async () => {
    const { json, exitCode } = await runCliJson<Record<string, unknown>>(['openapi'], env())
    expect(exitCode).toBe(0)
    expect(json).toEqual(served)
  })

  it('--output writes the document to a file and says so in one line', async () => {
    const file = path.join(temporaryDir(), 'openapi.json')
    const { stdout, exitCode } = await runCli(['openapi', '--output', file], env())
    expect(exitCode).toBe(0)
    expect(JSON.parse(fs.readFileSync(file, 'utf8'))).toEqual(served)
    const paths = Object.keys(served.paths as object).length
    expect(linesOf(stdout)).toEqual([`Wrote the OpenAPI 3.1.0 document (${paths} paths) to ${file}`])

    const { json } = await runCliJson(['openapi', '-o', file], env())
    expect(json).toEqual({ output: file, openapi: '3.1.0', paths })
  })

  it('fails in one line when the file cannot be written, or no sandbox answers', async () => {
    const missingDir = path.join(temporaryDir(), 'no', 'such', 'dir', 'openapi.json')
    const unwritable = await runCli(['openapi', '--output', missingDir], env())
    expect(unwritable.exitCode).toBe(1)
    expect(unwritable.stderr).toBe(`Error: Cannot write --output ${missingDir}: ENOENT\n`)

    const nothing = await runCli(['openapi'], isolatedEnv({ PAYBOX_BASE_URL: 'http://127.0.0.1:9' }))
    expect(nothing.exitCode).toBe(1)
    expect(nothing.stdout).toBe('')
    expect(linesOf(nothing.stderr)).toHaveLength(1)
    expect(nothing.stderr).toContain('is the sandbox running?')
  })
})
