// On PostgreSQL, the leading replica folds the count deltas that payment changes insert into the
// count tables (payment-repository.ts, foldPaymentCounts) once a second, so the deltas a list
// total adds up stay few. Totals are exact without it: the fold only keeps them cheap.
import { isLeader, isPostgres, type SandboxDb } from '../db/database.js'
import { failureText, repeatEvery, type RepeatingTask } from '../repeating-task.js'
import { foldPaymentCounts } from './payment-repository.js'

export const PAYMENT_COUNT_FOLD_INTERVAL_MS = 1000

export function startPaymentCountFolder(
  db: SandboxDb,
  log: (line: string) => void,
  intervalMs = PAYMENT_COUNT_FOLD_INTERVAL_MS,
): RepeatingTask {
  // SQLite keeps its counts by trigger, with no deltas to fold.
  return repeatEvery(
    isPostgres(db) ? intervalMs : 0,
    async () => {
      if (isLeader(db)) await foldPaymentCounts(db)
    },
    (error) => log(`Folding payment counts failed: ${failureText(error)}`),
  )
}
