// The one table helper fits tables to a terminal's width when told one (the widest columns cut
// with "…"), and draws them whole otherwise. Widths are injected: no terminal needed.
import { stripVTControlCharacters } from 'node:util'
import { afterEach, describe, expect, it } from 'vitest'
import { details, fitTablesTo, fittedColumnWidths, table } from '../../src/cli/output.js'

const widths = (text: string) =>
  stripVTControlCharacters(text)
    .split('\n')
    .map((line) => line.length)
const uri = `web+stellar:pay?destination=G${'A'.repeat(55)}&amount=12.5000000&asset_code=USDC&asset_issuer=G${'B'.repeat(55)}&memo=pt_0123456789abcdef`

afterEach(() => fitTablesTo(undefined))

describe('tables and the terminal width', () => {
  it('draw whole when no width is set (piped output)', () => {
    const drawn = details([
      ['Id', 'pt_1'],
      ['Wallet URI', uri],
    ])
    expect(drawn).toContain(uri)
    expect(Math.max(...widths(drawn))).toBeGreaterThan(200)
  })

  it('fit a details table to the width, cutting the long value', () => {
    fitTablesTo(100)
    const drawn = details([
      ['Id', 'pt_1'],
      ['Wallet URI', uri],
    ])
    expect(widths(drawn).every((width) => width === 100)).toBe(true)
    expect(drawn).toContain('│ web+stellar:pay?destination=GAAAA')
    expect(drawn).toContain('…')
    expect(drawn).toContain('│ pt_1 ')
  })

  it('cut only the widest columns of a table, keeping the narrow ones whole', () => {
    fitTablesTo(60)
    const drawn = table(
      ['Id', 'Status', 'Description'],
      [
        ['pt_1', 'open', 'x'.repeat(120)],
        ['pt_2', 'paid', 'short'],
      ],
    )
    expect(Math.max(...widths(drawn))).toBe(60)
    expect(drawn).toContain('│ pt_1 │ open   │ xxxx')
    expect(drawn).toContain('│ pt_2 │ paid   │ short ')
  })

  it('leave a table that fits alone, and never cut a column below 8', () => {
    expect(fittedColumnWidths([[2, 4]], 80)).toBeUndefined()
    expect(fittedColumnWidths([[30, 30, 30]], 10)).toEqual([8, 8, 8])
  })
})
