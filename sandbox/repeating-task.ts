// A background task run every interval, never two at once: a tick that finds the previous run
// still going is skipped. stop() clears the timer and waits for a run in progress.

export interface RepeatingTask {
  stop(): Promise<void>
}

/** Runs `task` every `intervalMs` (nothing when it is 0 or less); a failed run goes to `failed`, and the next tick runs again. */
export function repeatEvery(intervalMs: number, task: () => Promise<unknown>, failed: (error: unknown) => void): RepeatingTask {
  if (intervalMs <= 0) return { stop: async () => {} }
  let running: Promise<unknown> | undefined
  const timer = setInterval(() => {
    running ??= task()
      .catch(failed)
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

/** The text of a failed run's error, for a log line. */
export const failureText = (error: unknown): string => (error instanceof Error ? error.message : String(error))
