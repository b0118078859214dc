// Duration flags (--timeout 30s): a whole number of seconds, or what `ms` reads (500ms, 2m).
import ms from 'ms'
import { UserError } from './errors.js'

/** Milliseconds, or a UserError naming the flag. */
export function durationFlag(text: string, flag: string): number {
  const milliseconds = /^\d+$/.test(text) ? Number(text) * 1000 : ms(text as ms.StringValue)
  if (typeof milliseconds !== 'number' || !Number.isFinite(milliseconds) || milliseconds <= 0) {
    throw new UserError(`Invalid --${flag} "${text}"`, 'a number of seconds or a duration such as 500ms, 30s, 2m')
  }
  return milliseconds
}
