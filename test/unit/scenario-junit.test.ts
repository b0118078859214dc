// JUnit XML of a scenario report: well-formed whatever the step names and messages hold,
// with the counts, one testcase per step, failures and skips as CI dashboards read them.
import { describe, expect, it } from 'vitest'
import { escapeXml, junitXml } from '../../src/scenario/junit.js'
import type { ScenarioReport } from '../../src/scenario/run.js'
import { parseXml } from '../../harness/xml.js'

const nasty = `<tag attr="x"> & 'quoted' \u0001 bell \u0007, line\nbreak\ttab, emoji 🧾, lone \uD800 surrogate`

const report: ScenarioReport = {
  file: 'scenarios/a&b.yaml',
  name: 'Flow <1> & "two"',
  passed: false,
  merchant: { id: 'm', name: 'M', account: 'G', settlement_mode: 'direct' },
  steps: [
    { index: 1, name: 'create', action: 'createPayment', status: 'passed', durationMs: 12, result: {} },
    { index: 2, name: nasty, action: 'expect', status: 'failed', durationMs: 1500, error: nasty },
    { index: 3, name: 'later', action: 'pay', status: 'skipped' },
  ],
  summary: { total: 3, passed: 1, failed: 1, skipped: 1 },
  durationMs: 1512,
}

describe('junitXml', () => {
  it('writes one suite with one testcase per step, failures and skips marked', () => {
    const root = parseXml(junitXml(report, new Date('2026-11-21T12:00:00.123Z')))
    expect(root.attributes).toEqual({ name: 'paybox scenarios', tests: '3', failures: '1', errors: '0', skipped: '1', time: '1.512' })
    const [suite, ...others] = root.children
    expect(others).toEqual([])
    expect(suite!.attributes).toEqual({
      name: 'Flow <1> & "two"',
      tests: '3',
      failures: '1',
      errors: '0',
      skipped: '1',
      time: '1.512',
      timestamp: '2026-11-21T12:00:00Z',
      file: 'scenarios/a&b.yaml',
    })
    const [passed, failed, skipped] = suite!.children
    expect(passed).toMatchObject({ attributes: { name: '1 create', classname: 'scenarios/a&b.yaml', time: '0.012' }, children: [] })
    expect(failed!.children.map((child) => child.name)).toEqual(['failure'])
    expect(skipped!.children.map((child) => child.name)).toEqual(['skipped'])
    expect(skipped!.attributes.time).toBe('0.000')
  })

  it('escapes what XML cannot hold raw and replaces what it cannot hold at all', () => {
    const failed = parseXml(junitXml(report)).children[0]!.children[1]!
    // Control characters and the lone surrogate become U+FFFD; newline and tab survive, even in attributes.
    const expected = nasty.replace(/[\u0001\u0007\uD800]/g, '\uFFFD')
    expect(failed.attributes.name).toBe(`2 ${expected}`)
    expect(failed.children[0]!.attributes).toEqual({ message: expected, type: 'expect' })
    expect(failed.children[0]!.text).toBe(expected)
  })

  it('escapes each special character', () => {
    expect(escapeXml(`&<>"'`)).toBe('&amp;&lt;&gt;&quot;&apos;')
    expect(escapeXml('a\nb\r\tc')).toBe('a&#10;b&#13;&#9;c')
  })
})
