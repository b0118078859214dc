// A driver's error code is read through errorCode and a SQLSTATE is named in SQLSTATE, both in
// sandbox/db/error-codes.ts: a code spelled out again elsewhere would drift, or be misspelled, unseen.
import { describe, expect, it } from 'vitest'
import { errorCode, SQLSTATE } from '../../sandbox/db/error-codes.js'
import { appSources } from '../../harness/app-sources.js'

/** The declaration itself, and the migrations, which import no app code (PB409 is raised by one). */
const DECLARING = /^sandbox\/db\/error-codes\.ts$|^sandbox\/db\/migrations\//

const sources = () => appSources(DECLARING)

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
