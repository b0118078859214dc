// API fields named by the flags that sent them: a 400 about `next_number` reads `--next-number`.
// Derived from each command's flag definitions: a flag sends the field of its own name (kebab,
// camel or snake case alike: --refund-address sends refundAddress); one that sends a field of
// another name says so where it is defined, with sendsField.

export type FlagOfField = (path: string) => string | undefined

/** Marks a flag as sending `field` (a path: "line_items", "customer.vat_number"), for names that differ. */
export function sendsField<F extends object>(field: string, flag: F): F {
  // Typed as the flag it was: oclif infers a command's flag values from the exact flag types.
  Object.assign(flag, { sendsField: field })
  return flag
}

const squashed = (name: string): string => name.toLowerCase().replace(/[^a-z0-9]/g, '')

interface Match {
  flag: string
  /** What of the path the flag does not cover ("0.unit_price" of line_items.0.unit_price for --item). */
  rest: string
}

function matchOf(flag: string, definition: object, segments: string[]): Match | undefined {
  const sent = (definition as { sendsField?: unknown }).sendsField
  if (typeof sent === 'string') {
    const field = sent.split('.')
    if (!field.every((segment, index) => segment === segments[index])) return undefined
    return { flag, rest: segments.slice(field.length).join('.') }
  }
  const name = squashed(flag)
  // The whole path or its end (amount.currency is --currency), else its start (amount.value is --amount).
  for (let start = 0; start < segments.length; start += 1) if (squashed(segments.slice(start).join('')) === name) return { flag, rest: '' }
  for (let end = segments.length - 1; end > 0; end -= 1)
    if (squashed(segments.slice(0, end).join('')) === name) return { flag, rest: segments.slice(end).join('.') }
  return undefined
}

/**
 * The flag, as typed, that sent the field at `path`, from a command's own flags; among several
 * (--due and --due-in both send due_at) the one the user gave.
 */
export function flagsByField(flags: Record<string, object>, given: Record<string, unknown> = {}): FlagOfField {
  return (path) => {
    const segments = path.split('.')
    const matches = Object.entries(flags)
      .map(([flag, definition]) => matchOf(flag, definition, segments))
      .filter((match) => match !== undefined)
    const best = matches.find((match) => given[match.flag] !== undefined) ?? matches.find((match) => match.rest === '') ?? matches[0]
    if (best === undefined) return undefined
    return best.rest === '' ? `--${best.flag}` : `--${best.flag} (${path})`
  }
}

// "field.path: problem", as the sandbox words each problem of a refused request ("; " between them).
const FIELD_PROBLEM = /^([A-Za-z_][A-Za-z0-9_]*(?:\.[A-Za-z0-9_]+)*): /

/** The message with each problem's field named by its flag, where a flag sent it. */
export function nameFlagsIn(message: string, flagOf: FlagOfField): string {
  return message
    .split('; ')
    .map((problem) => problem.replace(FIELD_PROBLEM, (whole, path: string) => `${flagOf(path) ?? path}: `))
    .join('; ')
}
