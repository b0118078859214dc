// One measured figure beside its control and goal, and the table and JSON they are reported in.

export interface Figure {
  section: string
  name: string
  value: number
  unit: string
  /** The same measurement of the control, in the same run. */
  control?: { name: string; value: number }
  /** value / control.value (for times: control / value is not used; ratios are always value ÷ control). */
  ratio?: number
  /** What the figure must reach, in words, and whether it did. */
  goal?: string
  met?: boolean
  note?: string
}

export function figure(section: string, name: string, value: number, unit: string, extra: Partial<Figure> = {}): Figure {
  const result: Figure = { section, name, value, unit, ...extra }
  if (result.control && result.control.value > 0) result.ratio = value / result.control.value
  return result
}

const format = (value: number, unit: string): string => {
  if (unit === 'req/s' || unit === 'deliveries/s') return `${Math.round(value).toLocaleString('en-US')} ${unit}`
  if (unit === 'MB') return `${value.toFixed(0)} MB`
  // Counts (cases, rounds…) are whole; measured values get a decimal under 10, and latencies
  // under 100 ms (a p99 of 25.4 ms against a goal of 25 must not read "25 ms").
  const whole = Number.isInteger(value) || value >= (unit === 'ms' ? 100 : 10)
  return `${whole ? Math.round(value).toLocaleString('en-US') : value.toFixed(1)} ${unit}`
}

export function renderTable(figures: Figure[]): string {
  const rows = [['Figure', 'Value', 'Control', 'Ratio', 'Goal', 'Met']]
  for (const f of figures) {
    rows.push([
      f.name,
      format(f.value, f.unit),
      f.control ? `${format(f.control.value, f.unit)} (${f.control.name})` : '',
      f.ratio === undefined ? '' : `${f.ratio.toFixed(2)}×`,
      f.goal ?? '',
      f.met === undefined ? '' : f.met ? 'yes' : 'NO',
    ])
  }
  const widths = rows[0]!.map((_, column) => Math.max(...rows.map((row) => row[column]!.length)))
  const line = (row: string[]) => `| ${row.map((cell, column) => cell.padEnd(widths[column]!)).join(' | ')} |`
  return [line(rows[0]!), `|${widths.map((w) => '-'.repeat(w + 2)).join('|')}|`, ...rows.slice(1).map(line)].join('\n')
}

export function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b)
  const middle = Math.floor(sorted.length / 2)
  return sorted.length % 2 === 1 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2
}

export function percentile(values: number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b)
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))]!
}
