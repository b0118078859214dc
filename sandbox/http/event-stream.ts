// A live stream (server-sent events) of items as they happen: the webhook delivery stream and
// the request log stream. Listening starts before the session opens, so nothing that happens
// meanwhile is lost; the stream ends the sandbox's way (see streams.ts) when it stops or swaps state.
import type http from 'node:http'
import type { Session, SessionOptions } from 'better-sse'
import { markAsStream } from './streams.js'

/** SSE keep-alive comments, so proxies and idle timeouts leave the stream open. */
export const KEEP_ALIVE_MS = 15_000

/** An event stream on `res`. better-sse, and node:http2 with it, load with the first stream rather than at every start. */
export async function openEventSession(
  req: http.IncomingMessage,
  res: http.ServerResponse,
  options: SessionOptions = {},
): Promise<Session> {
  const { createSession } = await import('better-sse')
  return createSession(req, res, { keepAlive: KEEP_ALIVE_MS, headers: { 'cache-control': 'no-store' }, ...options })
}

/**
 * Streams each item `subscribe` hands over (it returns what unsubscribes, called when the client
 * goes away), written to the session by `send`.
 */
export async function streamLiveItems<T>(
  req: http.IncomingMessage,
  res: http.ServerResponse,
  subscribe: (deliver: (item: T) => void) => () => void,
  send: (session: Session, item: T) => void,
): Promise<void> {
  const waiting: T[] = []
  let session: Session | undefined
  const stop = subscribe((item) => {
    if (session) send(session, item)
    else waiting.push(item)
  })
  res.once('close', stop)
  markAsStream(res)
  session = await openEventSession(req, res)
  for (const item of waiting.splice(0)) send(session, item)
}
