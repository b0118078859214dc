// A PayboxClient transport over node:http(s), for the CLI. A command sends one or two requests;
// global fetch would first load Node's bundled undici and compile its WebAssembly HTTP parser,
// which costs more CPU than the rest of `paybox payments get`, and the process waits for that
// compilation to finish before it can exit. Server-sent-event streams still go through fetch:
// they run for minutes, and the stream commands rely on fetch's abort and cancel behaviour.
import http from 'node:http'
import type { Transport, TransportRequest, TransportResponse } from './paybox-client.js'

export const nodeHttpTransport: Transport = (url, init) => {
  if (/text\/event-stream/i.test(init.headers.accept ?? '')) return fetch(url, init)
  return send(new URL(url), init)
}

async function send(url: URL, init: TransportRequest): Promise<TransportResponse> {
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new TypeError(`unsupported protocol ${url.protocol}`)
  // TLS costs its own start-up time: loaded only for an https base URL.
  const { request } = url.protocol === 'https:' ? await import('node:https') : http
  const headers: Record<string, string> = { ...init.headers }
  if (init.body !== undefined) headers['content-length'] = String(Buffer.byteLength(init.body))
  const response = await new Promise<http.IncomingMessage>((resolve, reject) => {
    const outgoing = request(url, { method: init.method ?? 'GET', headers, signal: init.signal }, resolve)
    outgoing.once('error', reject)
    outgoing.end(init.body)
  })
  // Like fetch, a redirect is an answer (the client asks for redirect: 'manual'), never followed.
  const status = response.statusCode ?? 0
  return {
    ok: status >= 200 && status < 300,
    status,
    statusText: response.statusMessage ?? '',
    headers: {
      get: (name) => {
        const value = response.headers[name.toLowerCase()]
        return value === undefined ? null : Array.isArray(value) ? value.join(', ') : value
      },
    },
    body: null,
    text: async () => {
      const chunks: Buffer[] = []
      for await (const chunk of response) chunks.push(chunk as Buffer)
      // As fetch's text(): UTF-8, a byte-order mark dropped, invalid bytes replaced.
      return new TextDecoder().decode(Buffer.concat(chunks))
    },
  }
}
