// On PostgreSQL, the leading replica folds the count deltas that payment changes insert into the
// count tables (payment-repository.ts, foldPaymentCounts) once a second, so the deltas a list
// total adds up stay few. Totals are exact without it: the fold only keeps them cheap.
import { isLeader, isPostgres, type SandboxDb } from '../db/database.js'
import { foldPaymentCounts } from './payment-repository.js'

export const PAYMENT_COUNT_FOLD_INTERVAL_MS = 1000

export function startPaymentCountFolder(
  db: SandboxDb,
  log: (line: string) => void,
  intervalMs = PAYMENT_COUNT_FOLD_INTERVAL_MS,
): { stop(): Promise<void> } {
  if (!isPostgres(db) || intervalMs <= 0) return { stop: async () => {} }
  let running: Promise<unknown> | undefined
  const timer = setInterval(() => {
    if (!isLeader(db)) return
    running ??= foldPaymentCounts(db)
      .catch((error: unknown) => log(`Folding payment counts failed: ${error instanceof Error ? error.message : String(error)}`))
      .finally(() => (running = undefined))
  }, intervalMs)
  timer.unref()
  return {
    stop: async () => {
      clearInterval(timer)
      await running
    },
  }
}
