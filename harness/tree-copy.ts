// This checkout as `git clone` would give it, node_modules linked (an `npm ci` builds better-sqlite3 for
// a minute): tests that build or pack leave this checkout's dist/ alone for the tests beside them.
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
