// npm runs `prepare` after installing paybox from a folder or from git, and in a clone's own
// `npm ci`. Installed into another project, it builds dist/, which the exports and bin point at.
// In the clone itself it builds nothing: bin/run.js runs the sources, which a build would leave
// behind as soon as one is edited, and every `npm ci` would wait a minute for it.
import { spawnSync } from 'node:child_process'
import fs from 'node:fs'
import path from 'node:path'

const root = fs.realpathSync(process.cwd())
// The folder npm was run in (npm sets it for every script).
const from = process.env.INIT_CWD === undefined ? root : fs.realpathSync(process.env.INIT_CWD)
const inside = path.relative(root, from)
if (inside === '' || !(inside.startsWith('..') || path.isAbsolute(inside))) process.exit(0)

if (!fs.existsSync(path.join(root, 'node_modules', 'typescript'))) {
  process.stderr.write(`paybox: building ${root} needs its development dependencies: run npm ci there first, then install it again\n`)
  process.exit(1)
}
const build = spawnSync('npm', ['run', 'build'], { cwd: root, stdio: 'inherit' })
process.exit(build.status ?? 1)
