// Clients that hold connections open: idle TCP connections and server-sent event streams, each
// over its own connection from a chosen loopback address (127.0.0.2, … stand for other machines).
import http from 'node:http'
import net from 'node:net'

export interface Target {
  url: string
  port: number
}

/** Opens `count` connections from `from` that send nothing; resolves once each is connected or refused. */
export async function idleConnections(target: Target, count: number, from = '127.0.0.1', opened: net.Socket[] = []): Promise<net.Socket[]> {
  const sockets = Array.from({ length: count }, () => {
    const socket = net.connect({ host: '127.0.0.1', port: target.port, localAddress: from })
    socket.on('error', () => {})
    // Reads (and drops) whatever the server says, so its closing is seen.
    socket.resume()
    opened.push(socket)
    return new Promise<net.Socket>((resolve) => {
      socket.once('connect', () => resolve(socket))
      socket.once('close', () => resolve(socket))
    })
  })
  return Promise.all(sockets)
}

export interface OpenedStream {
  /** 0 when the connection was refused or reset before an answer. */
  status: number
  headers: http.IncomingHttpHeaders
  /** The event names received so far. */
  events: string[]
  /** The whole body, for a refused stream. */
  body: Promise<string>
  close(): void
}

/** An event stream over its own connection from `from`, once its status is known. */
export function openStream(target: Target, path: string, from = '127.0.0.1', opened: OpenedStream[] = []): Promise<OpenedStream> {
  return new Promise((resolve) => {
    const request = http.get(
      `${target.url}${path}`,
      { agent: false, localAddress: from, headers: { accept: 'text/event-stream' } },
      (response) => {
        const events: string[] = []
        let text = ''
        response.setEncoding('utf8')
        const body = new Promise<string>((done) => {
          response.on('data', (chunk: string) => {
            text += chunk
            for (const match of chunk.matchAll(/^event: ?(.+)$/gm)) events.push(match[1]!)
          })
          response.on('end', () => done(text))
          response.on('close', () => done(text))
        })
        response.on('error', () => {})
        const stream = { status: response.statusCode ?? 0, headers: response.headers, events, body, close: () => request.destroy() }
        opened.push(stream)
        resolve(stream)
      },
    )
    request.on('error', () => resolve({ status: 0, headers: {}, events: [], body: Promise.resolve(''), close: () => request.destroy() }))
  })
}
