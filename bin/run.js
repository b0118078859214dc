#!/usr/bin/env node
// The installed entry point: runs the compiled commands in dist/.
// `paybox --version` is answered here, without loading oclif (about 90 ms of a 150 ms start):
// the same line oclif prints, name/version platform-arch node-version.
import { readFileSync } from 'node:fs'
import os from 'node:os'

if (process.argv.length === 3 && process.argv[2] === '--version') {
  const { name, version } = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8'))
  // As oclif names them: WSL apart from Linux, ia32 as x86.
  const platform = process.platform === 'linux' && os.release().toLowerCase().includes('microsoft') ? 'wsl' : process.platform
  const arch = os.arch() === 'ia32' ? 'x86' : os.arch()
  process.stdout.write(`${name}/${version} ${platform}-${arch} node-${process.version}\n`)
} else {
  const { execute } = await import('@oclif/core')
  await execute({ dir: import.meta.url })
}
