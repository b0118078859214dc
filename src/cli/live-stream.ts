// Commands that follow a live stream (`webhooks tail`, `listen`, `logs tail`) until Ctrl+C: they
// reconnect when the stream drops, with a growing pause, and stop cleanly on SIGINT or SIGTERM, or
// when the process that started them dies.
import { setTimeout as delay } from 'node:timers/promises'
import { PayboxApiError } from '../client/errors.js'
import { onStopRequest } from './stop-requests.js'

/** On stderr even with --json: scripts and tests wait for "Ready" before making events. */
export function streamNotice(text: string): void {
  process.stderr.write(`${text}\n`)
}

/** One item as one line of JSON on stdout (NDJSON): with --json, what a following command prints instead of one document. */
export function jsonLine(value: unknown): void {
  process.stdout.write(`${JSON.stringify(value)}\n`)
}

/** Pauses before each reconnection attempt in a row; a connection that opens starts over. */
const BACKOFF_MS = [250, 500, 1000, 2000, 5000]

/** A stop request (onStopRequest) aborts `work`'s signal instead of ending the process: the command winds down, exit 0. */
export async function untilStopped(work: (signal: AbortSignal) => Promise<void>): Promise<void> {
  const controller = new AbortController()
  const dispose = onStopRequest(() => controller.abort())
  try {
    await work(controller.signal)
  } finally {
    dispose()
  }
}

export interface FollowOptions {
  signal: AbortSignal
  /** The server accepted the stream: the first time, or again after a drop. */
  onOpen: (reconnected: boolean) => void
  /** The stream dropped; the next attempt is in `retryInMs`. */
  onDrop: (reason: string, retryInMs: number) => void
}

/** An error of the command's own handling of an item: not the stream's fault, so not retried. */
class HandlingError extends Error {}

// Reopens the stream whenever it ends, but the first connection must succeed (a sandbox missing at
// the start is an error, not something to wait for), and a 4xx ends it: a retry gets the same answer.
export async function followStream<T>(
  open: (onOpen: () => void) => AsyncIterable<T>,
  handle: (item: T) => Promise<void> | void,
  options: FollowOptions,
): Promise<void> {
  const { signal } = options
  let opened = false
  let failures = 0
  while (!signal.aborted) {
    let reason = 'the server closed the stream'
    try {
      const onOpen = () => {
        options.onOpen(opened)
        opened = true
        failures = 0
      }
      for await (const item of open(onOpen)) {
        try {
          await handle(item)
        } catch (error) {
          throw new HandlingError('handling failed', { cause: error })
        }
      }
    } catch (error) {
      if (signal.aborted) return
      if (error instanceof HandlingError) throw error.cause
      if (!opened || isRefusal(error)) throw error
      reason = describeDrop(error)
    }
    if (signal.aborted) return
    const retryInMs = BACKOFF_MS[Math.min(failures, BACKOFF_MS.length - 1)]!
    failures += 1
    options.onDrop(reason, retryInMs)
    await delay(retryInMs, undefined, { signal }).catch(() => {})
  }
}

const isRefusal = (error: unknown): boolean =>
  error instanceof PayboxApiError &&
  error.statusCode >= 400 &&
  error.statusCode < 500 &&
  error.statusCode !== 408 &&
  error.statusCode !== 429

function describeDrop(error: unknown): string {
  if (!(error instanceof Error)) return String(error)
  // undici reports a body cut short as "terminated", with the socket error as its cause.
  const cause = error.cause instanceof Error ? error.cause.message : undefined
  return cause && error.message === 'terminated' ? `connection lost: ${cause}` : error.message
}
