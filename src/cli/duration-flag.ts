// Duration flags (--timeout 30s): a number of seconds (1.5 included), or what `ms` reads
// (500ms, 2m). One reading for every command, so `--timeout 1.5` never means 1.5 ms.
import ms from 'ms'
import { UserError } from '../user-error.js'

export interface DurationFlagOptions {
  /** The longest accepted, in ms. */
  maxMs?: number
  /** What the error suggests instead. */
  hint?: string
}

/** Whole milliseconds, or a UserError naming the flag. */
export function durationFlag(text: string, flag: string, options: DurationFlagOptions = {}): number {
  // ms throws (rather than answering undefined) for an empty string.
  const milliseconds = /^\d+(\.\d+)?$/.test(text) ? Number(text) * 1000 : text.trim() === '' ? undefined : ms(text as ms.StringValue)
  const max = options.maxMs ?? Number.POSITIVE_INFINITY
  if (typeof milliseconds !== 'number' || !Number.isFinite(milliseconds) || milliseconds <= 0 || milliseconds > max) {
    throw new UserError(`Invalid --${flag} "${text}"`, options.hint ?? 'a number of seconds or a duration such as 500ms, 30s, 2m')
  }
  return Math.max(1, Math.round(milliseconds))
}
