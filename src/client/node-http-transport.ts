// The CLI's PayboxClient transport: global fetch compiles undici's WebAssembly parser before a short command can exit.
// Event streams still go through fetch, whose abort and cancel the stream commands rely on.
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
