// Long-lived responses (server-sent event streams) never finish on their own: they are marked
// here so that stopping the sandbox ends them at once instead of waiting out the grace period.
import type { ServerResponse } from 'node:http'

const streams = new WeakSet<ServerResponse>()

export function markAsStream(response: ServerResponse): void {
  streams.add(response)
}

export const isStream = (response: ServerResponse): boolean => streams.has(response)
