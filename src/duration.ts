// How far to move business time, as people type it: a whole number of seconds, or what `ms`
// reads (90s, 30m, 2h, 7d). One reading for `paybox sandbox clock advance` and the dashboard's
// Clock page; the API's advance body (whole seconds, at most ten years) checks the rest.
import ms from 'ms'

export const ADVANCE_DURATION_HINT = 'a whole number of seconds or a duration such as 90s, 30m, 2h, 7d'

/** Whole seconds, or undefined when the text is no duration of at least a second in whole seconds. */
export function parseAdvanceSeconds(text: string): number | undefined {
  const trimmed = text.trim()
  // ms throws (rather than answering undefined) for an empty string, and reads only up to 100 characters.
  if (trimmed === '' || trimmed.length > 100) return undefined
  const milliseconds = /^\d+$/.test(trimmed) ? Number(trimmed) * 1000 : ms(trimmed as ms.StringValue)
  if (typeof milliseconds !== 'number' || !Number.isFinite(milliseconds) || milliseconds < 1000 || milliseconds % 1000 !== 0)
    return undefined
  return milliseconds / 1000
}
