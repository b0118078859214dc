// Reads a text/event-stream response as messages. eventsource-parser does the parsing (line
// endings, multi-line data, comments); this only feeds it and watches for a stream gone silent.
import type { EventSourceMessage, ParseError } from 'eventsource-parser'

export type { EventSourceMessage }

/** The stream sent nothing, not even a keep-alive comment, for too long: the connection is presumed dead. */
export class StreamIdleError extends Error {
  constructor(readonly idleMs: number) {
    super(`nothing received for ${Math.round(idleMs / 1000)} s`)
    this.name = 'StreamIdleError'
  }
}

/** A message larger than this is refused rather than buffered without bound. */
const MAX_BUFFER_CHARS = 8 * 1024 * 1024

/**
 * Yields the messages of an SSE response until the server ends it. Throws StreamIdleError when
 * nothing arrives for `idleTimeoutMs`. Stopping the iteration cancels the response body.
 */
export async function* serverSentEvents(
  response: { body: ReadableStream<Uint8Array> | null },
  idleTimeoutMs: number,
): AsyncGenerator<EventSourceMessage> {
  if (!response.body) return
  // Loaded on first use: only the commands that follow a stream need the parser.
  const { createParser } = await import('eventsource-parser')
  const reader = response.body.getReader()
  const decoder = new TextDecoder()
  const parsed: EventSourceMessage[] = []
  let failure: ParseError | undefined
  const parser = createParser({
    maxBufferSize: MAX_BUFFER_CHARS,
    onEvent: (message) => parsed.push(message),
    onError: (error) => {
      if (error.type === 'max-buffer-size-exceeded') failure = error
    },
  })
  try {
    for (;;) {
      const { done, value } = await readWithin(reader, idleTimeoutMs)
      if (done) {
        parser.reset({ consume: true })
        yield* parsed.splice(0)
        return
      }
      parser.feed(decoder.decode(value, { stream: true }))
      if (failure) throw new Error(`The event stream sent a message over ${MAX_BUFFER_CHARS} characters`)
      yield* parsed.splice(0)
    }
  } finally {
    await reader.cancel().catch(() => {})
  }
}

type ChunkReader = ReadableStreamDefaultReader<Uint8Array>

async function readWithin(reader: ChunkReader, ms: number): ReturnType<ChunkReader['read']> {
  let timer: NodeJS.Timeout | undefined
  const idle = new Promise<never>((_resolve, reject) => {
    timer = setTimeout(() => reject(new StreamIdleError(ms)), ms)
  })
  try {
    return await Promise.race([reader.read(), idle])
  } finally {
    clearTimeout(timer)
  }
}
