// commands/command-files.ts is the one list oclif and bin/run.js load commands from: a command
// file left out of it would silently not exist.
import fs from 'node:fs'
import path from 'node:path'
import { describe, expect, it } from 'vitest'
import { COMMAND_FILES } from '../../commands/command-files.js'
import { ROOT } from '../../harness/cli.js'

const COMMANDS_DIR = path.join(ROOT, 'commands')
const NOT_COMMANDS = new Set(['index.ts', 'command-files.ts'])

describe('the command list', () => {
  it('names every command file under commands/, once', () => {
    const files = (fs.readdirSync(COMMANDS_DIR, { recursive: true }) as string[])
      .filter((file) => file.endsWith('.ts') && !NOT_COMMANDS.has(file))
      .map((file) => `./${file.split(path.sep).join('/').replace(/\.ts$/, '.js')}`)
    const listed = Object.values(COMMAND_FILES)
    expect(new Set(listed).size).toBe(listed.length)
    expect([...listed].sort()).toEqual(files.sort())
  })
})
