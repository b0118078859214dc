// A driver's error code is read through errorCode and a SQLSTATE is named in SQLSTATE, both in
// sandbox/db/error-codes.ts: a code spelled out again elsewhere would drift, or be misspelled, unseen.
import fs from 'node:fs'
import path from 'node:path'
import { describe, expect, it } from 'vitest'
import { errorCode, SQLSTATE } from '../../sandbox/db/error-codes.js'
import { ROOT } from '../../harness/cli.js'

/** The declaration itself, and the migrations, which import no app code (PB409 is raised by one). */
const DECLARING = /^sandbox\/db\/error-codes\.ts$|^sandbox\/db\/migrations\//

function sources(): Array<{ file: string; text: string }> {
  return ['src', 'sandbox'].flatMap((dir) =>
    (fs.readdirSync(path.join(ROOT, dir), { recursive: true }) as string[])
      .filter((file) => file.endsWith('.ts'))
      .map((file) => `${dir}/${file.split(path.sep).join('/')}`)
      .filter((file) => !DECLARING.test(file))
      .map((file) => ({ file, text: fs.readFileSync(path.join(ROOT, file), 'utf8') })),
  )
}

describe('error codes, declared once', () => {
  it('no SQLSTATE the sandbox tells apart is spelled out in src/ or sandbox/', () => {
    const found = sources().flatMap(({ file, text }) =>
      Object.values(SQLSTATE)
        .filter((code) => new RegExp(`(['"\`])${code}\\1`).test(text))
        .map((code) => `${file}: ${code}`),
    )
    expect(found).toEqual([])
  })

  it("no error's code is read but through errorCode", () => {
    const found = sources()
      .filter(({ text }) => /\bcode\?: unknown\b/.test(text))
      .map(({ file }) => file)
    expect(found).toEqual([])
  })

  it('reads a string code, and nothing from errors without one', () => {
    expect(errorCode(Object.assign(new Error('deadlock detected'), { code: SQLSTATE.deadlockDetected }))).toBe('40P01')
    expect(errorCode(new Error('no code'))).toBeUndefined()
    expect(errorCode({ code: 40001 })).toBeUndefined()
    expect(errorCode(undefined)).toBeUndefined()
    expect(errorCode(null)).toBeUndefined()
  })
})
