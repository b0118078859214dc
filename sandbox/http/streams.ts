// Long-lived responses (server-sent event streams) never finish on their own: they are marked
// here so that stopping the sandbox ends them at once instead of waiting out the grace period,
// and counted against the sandbox's stream bounds (connection-guard.ts).
import type { ServerResponse } from 'node:http'
import { admitStream } from './connection-guard.js'

const streams = new WeakSet<ServerResponse>()

/** Call before the stream's first byte: past the client's or the sandbox's bound on streams, it throws a 429. */
export function markAsStream(response: ServerResponse): void {
  admitStream(response)
  streams.add(response)
}

export const isStream = (response: ServerResponse): boolean => streams.has(response)
