// `sandbox start` holds V8's young generation at its first size until ready: start-up (mostly modules
// that live for good) would grow it to its maximum, pages an idle sandbox would keep resident.
import v8 from 'node:v8'
import vm from 'node:vm'

/** V8's default, put back once ready (V8 reads the flag each time the young generation could grow). */
const GROWTH_FACTOR = 2

/** A process started with its own young-generation flags keeps what it was given. */
const userChoseSize = () =>
  [...process.execArgv, ...(process.env.NODE_OPTIONS ?? '').split(/\s+/)].some((flag) =>
    /^--(max|min)[-_]semi[-_]space[-_]size|^--semi[-_]space[-_]growth[-_]factor/.test(flag),
  )

/** Called by bin/run.js before it loads the command. */
export function holdYoungGeneration(): void {
  if (!userChoseSize()) v8.setFlagsFromString('--semi-space-growth-factor=1')
}

/** Called once the sandbox serves (or failed to start). */
export function releaseYoungGeneration(): void {
  if (!userChoseSize()) v8.setFlagsFromString(`--semi-space-growth-factor=${GROWTH_FACTOR}`)
}

/**
 * Once serving, one full collection: what starting left in the old generation (genesis, module
 * set-up) is otherwise kept resident by an idle sandbox until V8 happens to collect
 * (docs/performance.md). gc() exists only under --expose-gc, set for the one context that takes
 * it and unset at once, so the flags the code cache is checked against stay as they were.
 */
export function collectStartUpGarbage(): void {
  v8.setFlagsFromString('--expose-gc')
  const gc = vm.runInNewContext('gc') as (options: { type: 'major' }) => void
  v8.setFlagsFromString('--no-expose-gc')
  gc({ type: 'major' })
}
