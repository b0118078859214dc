// Processes due work (payment expiry, …) in the background as real time passes, one sweep at
// a time, so expiry happens without anyone advancing the clock. Every replica of a shared sandbox
// sweeps: each batch claims its due rows (skipLocked), so two replicas handle different rows.
import type { SandboxContext } from '../context.js'
import { processDueWork } from './clock-service.js'

export const DUE_WORK_INTERVAL_MS = 1000

export interface DueWorkSweeper {
  /** Stops the timer and waits for a sweep in progress to finish. */
  stop(): Promise<void>
}

export function startDueWorkSweeper(ctx: SandboxContext, intervalMs: number): DueWorkSweeper {
  if (intervalMs <= 0) return { stop: async () => {} }
  let running: Promise<unknown> | undefined
  const timer = setInterval(() => {
    running ??= processDueWork(ctx)
      .catch((error: unknown) => ctx.log(`Due work failed: ${error instanceof Error ? error.message : String(error)}`))
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
