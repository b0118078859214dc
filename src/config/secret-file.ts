// JSON files that hold secrets: written atomically with mode 0600, in a 0700 folder.
import fs from 'node:fs'
import path from 'node:path'

export function writeSecretJson(file: string, value: unknown): void {
  fs.mkdirSync(path.dirname(file), { recursive: true, mode: 0o700 })
  const temporary = `${file}.${process.pid}.tmp`
  fs.writeFileSync(temporary, `${JSON.stringify(value, null, 2)}\n`, { mode: 0o600 })
  fs.chmodSync(temporary, 0o600)
  fs.renameSync(temporary, file)
}

export function readJsonFile(file: string): unknown {
  let text: string
  try {
    text = fs.readFileSync(file, 'utf8')
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined
    throw error
  }
  try {
    return JSON.parse(text) as unknown
  } catch {
    throw new Error(`${file} is not valid JSON; fix or delete it`)
  }
}
