// Human-readable output: colours (off without a terminal or with NO_COLOR), tables and QR
// codes. Commands print through these so that --json output stays one clean JSON document.
import { createRequire } from 'node:module'
import { stripVTControlCharacters } from 'node:util'
import chalk from 'chalk'
import type CliTable3 from 'cli-table3'
import type { PageMeta } from '../client/types.js'

// chalk itself reads FORCE_COLOR but not NO_COLOR.
if (process.env.NO_COLOR !== undefined && process.env.NO_COLOR !== '') chalk.level = 0

export { chalk }

const STATUS_COLOURS: Record<string, (text: string) => string> = {
  open: chalk.cyan,
  underpaid: chalk.yellow,
  paid: chalk.green,
  settled: chalk.green,
  processing: chalk.blue,
  expired: chalk.gray,
  canceled: chalk.gray,
  failed: chalk.red,
  ok: chalk.green,
}

export const colourStatus = (status: string): string => (STATUS_COLOURS[status] ?? ((text: string) => text))(status)

// CommonJS, so it can be required synchronously at the first table drawn: --json output rarely draws one.
let Table: CliTable3 | undefined
const newTable = (options: CliTable3.TableConstructorOptions): CliTable3.Table =>
  new (Table ??= createRequire(import.meta.url)('cli-table3') as CliTable3)(options)

let tableWidth: number | undefined

/** Tables drawn from now on fit `width` columns (a terminal's), widest columns cut with "…"; undefined: whole. */
export function fitTablesTo(width: number | undefined): void {
  tableWidth = width
}

/** Columns are not cut narrower than this: a table wider than the terminal beats unreadable cells. */
const MIN_COLUMN = 8

/** Widths with padding, as cli-table3 counts them: the widest columns cut to one common cap; undefined when it fits. */
export function fittedColumnWidths(cellWidths: number[][], width: number): number[] | undefined {
  const natural = cellWidths.reduce<number[]>((widest, row) => row.map((cell, i) => Math.max(widest[i] ?? 0, cell + 2)), [])
  const borders = natural.length + 1
  const total = (cap: number) => natural.reduce((sum, column) => sum + Math.min(column, cap), borders)
  if (total(Infinity) <= width) return undefined
  let cap = Math.max(...natural)
  while (cap > MIN_COLUMN && total(cap) > width) cap -= 1
  return natural.map((column) => Math.min(column, cap))
}

const visibleWidth = (text: string): number =>
  Math.max(
    0,
    ...stripVTControlCharacters(text)
      .split('\n')
      .map((line) => line.length),
  )

/** `rows` (the header first, if `head` is given) as a table, fitted to the terminal if one is set. */
function drawn(options: CliTable3.TableConstructorOptions, rows: string[][]): string {
  const widths =
    tableWidth === undefined
      ? undefined
      : fittedColumnWidths(
          rows.map((row) => row.map(visibleWidth)),
          tableWidth,
        )
  const output = newTable({ ...options, ...(widths && { colWidths: widths }), style: { head: [], border: [] } })
  output.push(...rows.slice(options.head ? 1 : 0))
  return output.toString()
}

/** A table with a header row. */
export function table(head: string[], rows: Array<Array<string | number>>): string {
  const bold = head.map((title) => chalk.bold(title))
  return drawn({ head: bold }, [bold, ...rows.map((row) => row.map(String))])
}

/** "1 payment", "3 payments". */
export const counted = (count: number, singular: string, plural = `${singular}s`): string => `${count} ${count === 1 ? singular : plural}`

/** The line under a page of a list: "Page 2 of 5 (87 payments)". */
export const pageLine = ({ currentPage, totalPages, totalItems }: PageMeta, singular: string, plural?: string): string =>
  `Page ${currentPage} of ${Math.max(totalPages, 1)} (${counted(totalItems, singular, plural)})`

/** A two-column table of labels and values, skipping empty values. */
export function details(entries: Array<[string, string | number | undefined]>): string {
  const rows = entries
    .filter(([, value]) => value !== undefined && value !== '')
    .map(([label, value]) => [chalk.bold(label), String(value)])
  return drawn({}, rows)
}

/** Renders text as a QR code made of terminal characters. */
export async function terminalQr(text: string): Promise<string> {
  const { default: qrcode } = await import('qrcode-terminal')
  return new Promise((resolve) => qrcode.generate(text, { small: true }, (code: string) => resolve(code)))
}
