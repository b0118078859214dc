// Server-sent event streams as a test reads them: opened signed as a merchant, read in the
// background, and whether they ended cleanly or were cut off.
import { expect } from 'vitest'
import { signDigest } from '../src/signing.js'

export interface StreamEvent {
  event?: string
  id?: string
  data: string
}

export interface EventStream {
  received: StreamEvent[]
  onEnd: (listener: (clean: boolean) => void) => void
}

/** Opens `pathAndQuery` on `baseUrl` signed as `credentials`; it must answer 200 with an event stream. */
export async function openEventStream(
  baseUrl: string,
  credentials: { apiKey: string; apiSecret: string },
  pathAndQuery: string,
  options: { headers?: Record<string, string>; signal?: AbortSignal } = {},
): Promise<EventStream> {
  const timestamp = String(Math.floor(Date.now() / 1000))
  const response = await fetch(`${baseUrl}${pathAndQuery}`, {
    headers: {
      ...options.headers,
      'x-digest-key': credentials.apiKey,
      'x-digest-timestamp': timestamp,
      'x-digest-signature': signDigest(credentials.apiSecret, { path: pathAndQuery, timestamp, method: 'GET', body: '' }),
    },
    signal: options.signal,
  })
  expect(response.status).toBe(200)
  expect(response.headers.get('content-type')).toContain('text/event-stream')
  return readEvents(response)
}

/** Reads an SSE response in the background; onEnd hears whether it ended cleanly (true) or was cut off. */
export function readEvents(response: Response): { received: StreamEvent[]; onEnd: (listener: (clean: boolean) => void) => void } {
  const received: StreamEvent[] = []
  let ended: boolean | undefined
  const endListeners: Array<(clean: boolean) => void> = []
  void (async () => {
    const decoder = new TextDecoder()
    let buffer = ''
    try {
      for await (const chunk of response.body as unknown as AsyncIterable<Uint8Array>) {
        buffer += decoder.decode(chunk, { stream: true })
        let end: number
        while ((end = buffer.indexOf('\n\n')) >= 0) {
          const block = buffer.slice(0, end)
          buffer = buffer.slice(end + 2)
          const event: StreamEvent = { data: '' }
          for (const line of block.split('\n')) {
            const [field, ...rest] = line.split(':')
            const value = rest.join(':').replace(/^ /, '')
            if (field === 'event') event.event = value
            else if (field === 'id') event.id = value
            else if (field === 'data') event.data += value
          }
          if (event.data !== '') received.push(event)
        }
      }
      ended = true
    } catch {
      ended = false // aborted, or the connection was cut
    }
    for (const listener of endListeners) listener(ended)
  })()
  return { received, onEnd: (listener) => (ended === undefined ? endListeners.push(listener) : listener(ended)) }
}
