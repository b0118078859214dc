// Bounds the connections a sandbox holds, in total and per client address, so idle or slow
// clients cannot use up its file descriptors. When a bound is reached, the connection idle the
// longest makes room (the same client's, when that client is at its own bound); with none idle,
// the new connection is closed at once. Event streams are counted the same way, and refused with 429.
import type http from 'node:http'
import type net from 'node:net'
import type { SandboxLimits } from '../limits/sandbox-limits.js'
import { ApiError } from '../errors.js'

type GuardLimits = Pick<SandboxLimits, 'maxConnections' | 'maxConnectionsPerClient' | 'maxStreams' | 'maxStreamsPerClient'>

interface Connection {
  socket: net.Socket
  client: string
  /** Requests received and not yet answered. */
  requests: number
  released: boolean
}

interface Client {
  connections: number
  streams: number
}

/** Seconds a client refused a stream is told to wait. */
const STREAM_RETRY_AFTER_SECONDS = 5

const guards = new WeakMap<net.Socket, { guard: ConnectionGuard; connection: Connection }>()

/** Counts an event stream opening on `response`'s connection; throws 429 past a bound. */
export function admitStream(response: http.ServerResponse): void {
  const found = response.socket ? guards.get(response.socket) : undefined
  found?.guard.admitStream(found.connection, response)
}

export class ConnectionGuard {
  readonly #clients = new Map<string, Client>()
  /** Connections with no request in flight, longest idle first. */
  readonly #idle = new Map<net.Socket, Connection>()
  #connections = 0
  #streams = 0

  constructor(readonly limits: GuardLimits) {}

  attach(server: http.Server): void {
    server.on('connection', (socket: net.Socket) => this.#admit(socket))
    server.on('request', (req: http.IncomingMessage, res: http.ServerResponse) => {
      const connection = guards.get(req.socket)?.connection
      if (!connection) return
      connection.requests++
      this.#idle.delete(connection.socket)
      res.once('close', () => {
        connection.requests--
        if (connection.requests === 0 && !connection.released) this.#idle.set(connection.socket, connection)
      })
    })
  }

  get connections(): number {
    return this.#connections
  }

  get streams(): number {
    return this.#streams
  }

  admitStream(connection: Connection, response: http.ServerResponse): void {
    const client = this.#clientOf(connection.client)
    const { maxStreams, maxStreamsPerClient } = this.limits
    if (client.streams >= maxStreamsPerClient || this.#streams >= maxStreams) {
      const which = client.streams >= maxStreamsPerClient ? `${maxStreamsPerClient} per client` : `${maxStreams} in all`
      throw new ApiError(429, 'Too Many Requests', `Too many open event streams (at most ${which}): close one, or retry later`, {
        'Retry-After': String(STREAM_RETRY_AFTER_SECONDS),
      })
    }
    client.streams++
    this.#streams++
    response.once('close', () => {
      client.streams--
      this.#streams--
      this.#forgetIfUnused(connection.client, client)
    })
  }

  #admit(socket: net.Socket): void {
    const address = clientAddress(socket)
    const { maxConnections, maxConnectionsPerClient } = this.limits
    const clientFull = (this.#clients.get(address)?.connections ?? 0) >= maxConnectionsPerClient
    const room = (!clientFull || this.#evictIdle(address)) && (this.#connections < maxConnections || this.#evictIdle())
    if (!room) {
      socket.destroy()
      return
    }
    const client = this.#clientOf(address)
    const connection: Connection = { socket, client: address, requests: 0, released: false }
    client.connections++
    this.#connections++
    this.#idle.set(socket, connection)
    guards.set(socket, { guard: this, connection })
    socket.once('close', () => this.#release(connection))
  }

  /** Closes the connection idle the longest (of `address`, if given); false if there is none. */
  #evictIdle(address?: string): boolean {
    for (const connection of this.#idle.values()) {
      if (address !== undefined && connection.client !== address) continue
      this.#release(connection)
      connection.socket.destroy()
      return true
    }
    return false
  }

  #release(connection: Connection): void {
    if (connection.released) return
    connection.released = true
    this.#idle.delete(connection.socket)
    this.#connections--
    const client = this.#clientOf(connection.client)
    client.connections--
    this.#forgetIfUnused(connection.client, client)
  }

  #clientOf(address: string): Client {
    let client = this.#clients.get(address)
    if (!client) this.#clients.set(address, (client = { connections: 0, streams: 0 }))
    return client
  }

  #forgetIfUnused(address: string, client: Client): void {
    if (client.connections === 0 && client.streams === 0) this.#clients.delete(address)
  }
}

/** The client's address; an IPv4 address seen through an IPv6 socket counts as itself. */
export function clientAddress(socket: net.Socket): string {
  const address = socket.remoteAddress ?? 'unknown'
  return address.startsWith('::ffff:') ? address.slice(7) : address
}
