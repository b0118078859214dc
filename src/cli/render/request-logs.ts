// How request log records look in the terminal: one line each, for `paybox logs tail` and the
// stderr of a foreground `paybox sandbox start`.
import type { RequestLogEntry } from '../../client/types.js'
import { chalk } from '../output.js'

const colourStatus = (status: number): string => {
  const text = String(status).padStart(3)
  return status >= 500 || status === 0 ? chalk.red(text) : status >= 400 ? chalk.yellow(text) : chalk.green(text)
}

/** Time, method, path, status, duration, merchant, idempotency key (when sent), request id. */
export function requestLine(entry: RequestLogEntry): string {
  return [
    chalk.gray(entry.time),
    entry.method.padEnd(6),
    entry.path,
    colourStatus(entry.status),
    `${entry.durationMs.toFixed(1)} ms`.padStart(9),
    entry.merchantId ?? '-',
    entry.idempotencyKey === null ? '-' : `idempotency-key=${entry.idempotencyKey}`,
    chalk.gray(entry.requestId),
  ].join('  ')
}
