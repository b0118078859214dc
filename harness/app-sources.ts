// The app's TypeScript sources (src/ and sandbox/), read for tests that check a thing is declared
// once: each file with its path from the repository's root, in forward slashes.
import fs from 'node:fs'
import path from 'node:path'
import { ROOT } from './cli.js'

/** Every .ts file under src/ and sandbox/ whose path `declaring` does not match (where the thing is declared). */
export function appSources(declaring: RegExp): Array<{ file: string; text: string }> {
  return ['src', 'sandbox'].flatMap((dir) =>
    (fs.readdirSync(path.join(ROOT, dir), { recursive: true }) as string[])
      .filter((file) => file.endsWith('.ts'))
      .map((file) => `${dir}/${file.split(path.sep).join('/')}`)
      .filter((file) => !declaring.test(file))
      .map((file) => ({ file, text: fs.readFileSync(path.join(ROOT, file), 'utf8') })),
  )
}
