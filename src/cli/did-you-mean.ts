// "Did you mean …?" for a mistyped command or flag: the nearest known name by edit distance,
// when it is near enough to be a typo. Never a question to answer: nothing here prompts.
import { createRequire } from 'node:module'

type Levenshtein = typeof import('fastest-levenshtein')
let levenshtein: Levenshtein | undefined
// Required when a suggestion is wanted, not at every start: only a mistyped line pays for it.
const loaded = (): Levenshtein => (levenshtein ??= createRequire(import.meta.url)('fastest-levenshtein') as Levenshtein)
const closest = (typed: string, candidates: string[]): string => loaded().closest(typed, candidates)
const distance = (a: string, b: string): number => loaded().distance(a, b)

/** Only within a third of the differing words' letters (at least 2): `sandbox clock nonsense` is no typo of `… freeze`. */
export function nearest(typed: string, candidates: readonly string[]): string | undefined {
  if (candidates.length === 0) return undefined
  const best = closest(typed, [...candidates])
  const words = typed.split(':')
  const same = best.split(':').findIndex((word, index) => word !== words[index])
  const differing = words.slice(same < 0 ? words.length : same).join(':')
  return distance(typed, best) <= Math.max(2, Math.floor(differing.length / 3)) ? best : undefined
}

// oclif hands an unknown command with the arguments after it as one id (`sandbox:clock:advanse:1m`).
export function nearestCommand(id: string, commandIds: readonly string[]): { typed: string; match?: string } {
  const words = id.split(':')
  let best: { typed: string; match: string; distance: number } | undefined
  for (let count = words.length; count >= 1; count -= 1) {
    const typed = words.slice(0, count).join(':')
    const match = nearest(typed, commandIds)
    // A command itself (`sandbox clock`) followed by a typo: the typo is in the next word.
    if (match !== undefined && match !== typed && (best === undefined || distance(typed, match) < best.distance))
      best = { typed, match, distance: distance(typed, match) }
  }
  return best ?? { typed: id }
}

/** ". Did you mean --amount, --description?" for the unknown flags of an oclif parse error, or "". */
export function flagSuggestion(unknown: readonly string[], known: readonly string[]): string {
  const matches = unknown.map((flag) => nearest(flag.replace(/^-+/, '').replace(/=.*$/, ''), known)).filter((match) => match !== undefined)
  return matches.length === 0 ? '' : `. Did you mean ${[...new Set(matches)].map((match) => `--${match}`).join(', ')}?`
}

/** Every flag a command takes (as oclif's command class declares them), to suggest from. */
export const flagNamesOf = (command: { flags?: object; baseFlags?: object; enableJsonFlag?: boolean }): string[] => [
  ...Object.keys({ ...command.baseFlags, ...command.flags }),
  ...(command.enableJsonFlag ? ['json'] : []),
]
