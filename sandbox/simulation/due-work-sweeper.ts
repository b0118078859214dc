// Processes due work (payment expiry, …) in the background as real time passes, one sweep at
// a time, so expiry happens without anyone advancing the clock. Every replica of a shared sandbox
// sweeps: each batch claims its due rows (skipLocked), so two replicas handle different rows.
import type { SandboxContext } from '../context.js'
import { failureText, repeatEvery, type RepeatingTask } from '../repeating-task.js'
import { processDueWork } from './clock-service.js'

export const DUE_WORK_INTERVAL_MS = 1000

export function startDueWorkSweeper(ctx: SandboxContext, intervalMs: number): RepeatingTask {
  return repeatEvery(
    intervalMs,
    () => processDueWork(ctx),
    (error) => ctx.log(`Due work failed: ${failureText(error)}`),
  )
}
