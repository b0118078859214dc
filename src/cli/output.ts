// Human-readable output: colours (off without a terminal or with NO_COLOR), tables and QR
// codes. Commands print through these so that --json output stays one clean JSON document.
import chalk from 'chalk'
import Table from 'cli-table3'

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

/** A table with a header row. */
export function table(head: string[], rows: Array<Array<string | number>>): string {
  const output = new Table({ head: head.map((title) => chalk.bold(title)), style: { head: [], border: [] } })
  output.push(...rows.map((row) => row.map(String)))
  return output.toString()
}

/** A two-column table of labels and values, skipping empty values. */
export function details(entries: Array<[string, string | number | undefined]>): string {
  const output = new Table({ style: { head: [], border: [] } })
  for (const [label, value] of entries) {
    if (value !== undefined && value !== '') output.push({ [chalk.bold(label)]: String(value) })
  }
  return output.toString()
}

/** Renders text as a QR code made of terminal characters. */
export async function terminalQr(text: string): Promise<string> {
  const { default: qrcode } = await import('qrcode-terminal')
  return new Promise((resolve) => qrcode.generate(text, { small: true }, (code: string) => resolve(code)))
}
