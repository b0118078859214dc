// The seeded randomness of the hostile cases: the same seed always yields the same cases;
// nothing here reads Math.random.

/** mulberry32: a tiny, well-mixed 32-bit PRNG; returns floats in [0, 1). */
export function mulberry32(seed: number): () => number {
  let state = seed >>> 0
  return () => {
    state = (state + 0x6d2b79f5) >>> 0
    let t = state
    t = Math.imul(t ^ (t >>> 15), t | 1)
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61)
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296
  }
}

export class Rng {
  readonly #next: () => number
  constructor(seed: number) {
    this.#next = mulberry32(seed)
  }
  float(): number {
    return this.#next()
  }
  /** Integer in [min, max], both inclusive. */
  int(min: number, max: number): number {
    return min + Math.floor(this.#next() * (max - min + 1))
  }
  chance(probability: number): boolean {
    return this.#next() < probability
  }
  pick<T>(items: readonly T[]): T {
    if (items.length === 0) throw new Error('pick from an empty list')
    return items[this.int(0, items.length - 1)]!
  }
  /** `count` distinct items in random order (all of them when count >= length). */
  sample<T>(items: readonly T[], count: number): T[] {
    const pool = [...items]
    for (let i = pool.length - 1; i > 0; i--) {
      const j = this.int(0, i)
      ;[pool[i], pool[j]] = [pool[j]!, pool[i]!]
    }
    return pool.slice(0, Math.min(count, pool.length))
  }
  hex(length: number): string {
    let out = ''
    for (let i = 0; i < length; i++) out += '0123456789abcdef'[this.int(0, 15)]
    return out
  }
  /** Text over `alphabet`; the default mixes ASCII, accents, CJK, emoji and JSON-special characters. */
  text(min: number, max: number, alphabet: readonly string[] = TEXT_ALPHABET): string {
    const length = this.int(min, max)
    let out = ''
    for (let i = 0; i < length; i++) out += this.pick(alphabet)
    return out
  }
}

// No '.', ':' or runs of spaces: generated text can never look like a stack frame ("    at ", ".ts:").
const TEXT_ALPHABET = [
  ...'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-_ ',
  'é',
  'ß',
  'ñ',
  '中',
  '文',
  '🙂',
  '💸',
  '"',
  '\\',
  '/',
  '<',
  '>',
  '&',
  "'",
  '\u200b',
  '\u0007',
  '\n',
  '\t',
]
export const KEY_ALPHABET = [...'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_$']
