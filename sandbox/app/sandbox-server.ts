// The sandbox's HTTP server: Node's timeouts and the connection guard from the limits in force,
// binding with clear errors for a bad --host, JSON answers to unparsable requests, and a
// shutdown that lets in-flight requests finish.
import http from 'node:http'
import type { Duplex } from 'node:stream'
import { SandboxConfigError } from '../config-error.js'
import type { SandboxLimits } from '../limits/sandbox-limits.js'
import { REQUEST_ID_HEADER } from '../../src/api/headers.js'
import { ConnectionGuard } from '../http/connection-guard.js'
import { newRequestId } from '../http/request-notes.js'
import { isStream } from '../http/streams.js'

const SHUTDOWN_GRACE_MS = 5_000

/** A server bounded by `limits`, answering unparsable requests itself; requests are the caller's to handle. */
export function createSandboxServer(limits: SandboxLimits): http.Server {
  const server = http.createServer({
    headersTimeout: limits.headersTimeoutMs,
    requestTimeout: limits.requestTimeoutMs,
    keepAliveTimeout: limits.keepAliveTimeoutMs,
    // How often those timeouts are checked (Node's default, 30 s, would let a slow client overstay them).
    connectionsCheckingInterval: Math.min(1_000, limits.headersTimeoutMs),
  })
  new ConnectionGuard(limits).attach(server)
  return server
}

export function listen(server: http.Server, port: number, host: string): Promise<void> {
  return new Promise((resolve, reject) => {
    const failed = (error: NodeJS.ErrnoException) => reject(hostError(error, host) ?? error)
    server.once('error', failed)
    server.listen(port, host, () => {
      server.off('error', failed)
      resolve()
    })
  })
}

/** An address this machine cannot bind, as the user's mistake it is. */
function hostError(error: NodeJS.ErrnoException, host: string): SandboxConfigError | undefined {
  if (error.code === 'ENOTFOUND' || error.code === 'EAI_AGAIN' || error.code === 'EAI_FAIL') {
    return new SandboxConfigError(
      `--host ${host} is not an IP address or a host name that resolves: use 127.0.0.1, or an address of this machine`,
    )
  }
  if (error.code === 'EADDRNOTAVAIL' || error.code === 'EINVAL') {
    return new SandboxConfigError(`--host ${host} is not an address of this machine: use 127.0.0.1, or 0.0.0.0 for every interface`)
  }
  return undefined
}

/**
 * Requests Node cannot even parse (oversized headers, broken HTTP) still get the JSON error
 * body every other error has, instead of Node's bare status line.
 */
export function answerClientError(error: NodeJS.ErrnoException, socket: Duplex): void {
  if (!socket.writable) {
    socket.destroy()
    return
  }
  const [status, reason, message] =
    error.code === 'HPE_HEADER_OVERFLOW'
      ? [431, 'Request Header Fields Too Large', 'Request headers are too large']
      : error.code === 'ERR_HTTP_REQUEST_TIMEOUT'
        ? [408, 'Request Timeout', 'The request was not received in time']
        : [400, 'Bad Request', 'Malformed HTTP request']
  const requestId = newRequestId()
  const body = JSON.stringify({ statusCode: status, reason, message, requestId })
  socket.end(
    `HTTP/1.1 ${status} ${reason}\r\nContent-Type: application/json; charset=utf-8\r\nContent-Length: ${Buffer.byteLength(body)}\r\n${REQUEST_ID_HEADER}: ${requestId}\r\nConnection: close\r\n\r\n${body}`,
  )
}

/** Responses not yet finished, so that stopping can tell them to close their connection. */
export function trackResponses(server: http.Server): Set<http.ServerResponse> {
  const active = new Set<http.ServerResponse>()
  server.on('request', (_req: http.IncomingMessage, res: http.ServerResponse) => {
    active.add(res)
    res.once('close', () => active.delete(res))
  })
  return active
}

export async function shutDown(server: http.Server, inFlight: Set<http.ServerResponse>, closeDatabase: () => Promise<void>): Promise<void> {
  // In-flight requests are answered with Connection: close, so no keep-alive socket lingers;
  // event streams, which would never finish, end now.
  for (const response of inFlight) {
    response.shouldKeepAlive = false
    if (isStream(response)) response.end()
  }
  const closed = new Promise<void>((resolve) => server.close(() => resolve()))
  server.closeIdleConnections()
  const force = setTimeout(() => server.closeAllConnections(), SHUTDOWN_GRACE_MS)
  force.unref()
  await closed
  clearTimeout(force)
  await closeDatabase()
}
