// The two vitest projects of vitest.config.ts: `sqlite` runs every suite under test/ except
// test/postgres/, as before there were two backends; `postgres` exists only when
// PAYBOX_TEST_POSTGRES_URL names a cluster, and without it `npm test` says once that it skipped
// the PostgreSQL suites. Runs vitest itself, with and without the URL.
import { spawn } from 'node:child_process'
import { once } from 'node:events'
import fs from 'node:fs'
import path from 'node:path'
import { describe, expect, it } from 'vitest'
import { ROOT } from '../../harness/cli.js'

const VITEST = path.join(ROOT, 'node_modules', 'vitest', 'vitest.mjs')
const SKIPPED =
  'PostgreSQL suites skipped: PAYBOX_TEST_POSTGRES_URL is not set (run `eval "$(scripts/postgres-dev.sh start)"`, then npm test)'

async function vitest(args: string[], postgresUrl: string | undefined): Promise<{ code: number | null; stdout: string; output: string }> {
  const env: NodeJS.ProcessEnv = { ...process.env, NO_COLOR: '1', CI: '1' }
  delete env.PAYBOX_TEST_POSTGRES_URL
  if (postgresUrl) env.PAYBOX_TEST_POSTGRES_URL = postgresUrl
  const child = spawn(process.execPath, [VITEST, ...args], { cwd: ROOT, env })
  let stdout = ''
  let output = ''
  child.stdout.setEncoding('utf8').on('data', (chunk: string) => ((stdout += chunk), (output += chunk)))
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => (output += chunk))
  const [code] = (await once(child, 'exit')) as [number | null]
  return { code, stdout, output }
}

async function listFiles(postgresUrl: string | undefined): Promise<{ projects: Record<string, string[]>; output: string }> {
  const { code, stdout, output } = await vitest(['list', '--filesOnly', '--json'], postgresUrl)
  expect(code, output).toBe(0)
  const projects: Record<string, string[]> = {}
  for (const { file, projectName } of JSON.parse(stdout) as { file: string; projectName: string }[])
    (projects[projectName] ??= []).push(path.relative(ROOT, file).split(path.sep).join('/'))
  for (const files of Object.values(projects)) files.sort()
  return { projects, output }
}

const testFiles = (fs.readdirSync(path.join(ROOT, 'test'), { recursive: true }) as string[])
  .map((file) => `test/${file.split(path.sep).join('/')}`)
  .filter((file) => file.endsWith('.test.ts'))
  .sort()

const count = (text: string, part: string) => text.split(part).length - 1

describe('the vitest projects', { timeout: 60_000 }, () => {
  it('with PAYBOX_TEST_POSTGRES_URL: sqlite runs what it always ran, postgres the PostgreSQL suites', async () => {
    // Listing files connects to nothing: any URL will do.
    const { projects, output } = await listFiles('postgres://postgres@127.0.0.1:1/postgres')
    expect(Object.keys(projects).sort()).toEqual(['postgres', 'sqlite'])
    expect(projects.sqlite).toEqual(testFiles.filter((file) => !file.startsWith('test/postgres/')))
    expect(projects.postgres).toContain('test/postgres/test-database.test.ts')
    expect(output).not.toContain('PostgreSQL suites skipped')
  })

  it('without it: only sqlite, and one line saying how to run the PostgreSQL suites', async () => {
    const { projects, output } = await listFiles(undefined)
    expect(Object.keys(projects)).toEqual(['sqlite'])
    expect(count(output, SKIPPED)).toBe(1)
  })

  it('prints that line once per run, not once per worker', async () => {
    const { code, output } = await vitest(['run', 'test/unit/money.test.ts', 'test/unit/random.test.ts'], undefined)
    expect(code, output).toBe(0)
    expect(output).toMatch(/Test Files {2}2 passed/)
    expect(count(output, SKIPPED)).toBe(1)
  })
})
