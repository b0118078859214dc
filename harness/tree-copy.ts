// A copy of this checkout as `git clone` would give it (tracked files and new ones not ignored,
// so no dist/), with this checkout's node_modules linked in place of an `npm ci`, which would
// build better-sqlite3 from source for a minute. Tests that build or pack work on the copy and
// leave this checkout's dist/ alone for the tests running beside them.
import { execFile } from 'node:child_process'
import fs from 'node:fs'
import path from 'node:path'
import { promisify } from 'node:util'
import { ROOT } from './cli.js'
import { temporaryDir } from './sandbox.js'

const exec = promisify(execFile)

export async function copyOfCheckout(prefix: string): Promise<string> {
  const copy = path.join(temporaryDir(prefix), 'paybox')
  const { stdout } = await exec('git', ['ls-files', '-z', '--cached', '--others', '--exclude-standard'], {
    cwd: ROOT,
    maxBuffer: 16 * 2 ** 20,
  })
  for (const file of stdout.split('\0').filter((name) => name !== '' && fs.existsSync(path.join(ROOT, name)))) {
    fs.mkdirSync(path.dirname(path.join(copy, file)), { recursive: true })
    fs.copyFileSync(path.join(ROOT, file), path.join(copy, file))
  }
  fs.symlinkSync(path.join(ROOT, 'node_modules'), path.join(copy, 'node_modules'))
  return copy
}
