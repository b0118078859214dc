// Every bound the sandbox puts on its clients, declared once: the local default (a developer's
// own machine, as friendly as can be) and --shared (a sandbox a team reaches over a network).
// docs/security.md lists them; `startSandbox({limits})` may override any of them.
import fs from 'node:fs'
import net from 'node:net'

/** A token bucket: `burst` requests at once, refilled at `perSecond`. */
export interface RateLimit {
  burst: number
  perSecond: number
}

export interface SandboxLimits {
  /** Time a client has to send a request's headers. */
  headersTimeoutMs: number
  /** Time a client has to send a whole request, body included. */
  requestTimeoutMs: number
  /** An idle keep-alive connection is closed after this. */
  keepAliveTimeoutMs: number
  /** Open connections, in total and per client address (event streams included). */
  maxConnections: number
  maxConnectionsPerClient: number
  /** Open event streams (Horizon streams, `webhooks tail`, `listen`), in total and per client address. */
  maxStreams: number
  maxStreamsPerClient: number
  /** Requests per API key (each merchant key); none: not limited. */
  apiKeyRate?: RateLimit
  /** Requests without credentials that do work (quotes, checkout actions), per client address. */
  publicRate?: RateLimit
  /** Wrong or missing admin tokens per client address; past it, admin requests from there get 429. */
  adminFailureRate?: RateLimit
  /** Active tenants at once (POST /sandbox/tenants answers 409 past it; archiving one frees its place). */
  maxTenants: number
  /** Tenants created per client address; none: not limited. */
  tenantCreationRate?: RateLimit
  /** Whether a merchant's own key may read and move its own clock (/sandbox/merchants/{id}/clock); the admin token always may. */
  merchantOwnClock: boolean
}

const TIMEOUTS = { headersTimeoutMs: 10_000, requestTimeoutMs: 30_000, keepAliveTimeoutMs: 5_000 }

export const LOCAL_LIMITS: Readonly<SandboxLimits> = {
  ...TIMEOUTS,
  maxConnections: 4_096,
  maxConnectionsPerClient: 4_096,
  maxStreams: 1_000,
  maxStreamsPerClient: 1_000,
  maxTenants: 1_000,
  merchantOwnClock: true,
}

/** Sized for a team of a few dozen people, each with a CLI, a test suite and a few streams. */
export const SHARED_LIMITS: Readonly<SandboxLimits> = {
  ...TIMEOUTS,
  maxConnections: 1_024,
  maxConnectionsPerClient: 128,
  maxStreams: 256,
  maxStreamsPerClient: 16,
  apiKeyRate: { burst: 200, perSecond: 50 },
  publicRate: { burst: 30, perSecond: 1 },
  adminFailureRate: { burst: 10, perSecond: 0.1 },
  // A CI fleet starting many jobs at once: a burst of 100, then 5 a second.
  maxTenants: 10_000,
  tenantCreationRate: { burst: 100, perSecond: 5 },
  merchantOwnClock: false,
}

/** File descriptors kept out of the connection bound: the database, its checkpointer, snapshots, webhook receivers. */
export const RESERVED_FILE_DESCRIPTORS = 256

/**
 * The limits of a sandbox: the mode's, with any overrides, and never more connections than the
 * process may open files (past that, accept() fails and even /health goes unanswered).
 */
export function limitsFor(shared: boolean, overrides: Partial<SandboxLimits> = {}, fileLimit = openFileLimit()): SandboxLimits {
  const limits = { ...(shared ? SHARED_LIMITS : LOCAL_LIMITS), ...overrides }
  if (fileLimit !== undefined) limits.maxConnections = Math.min(limits.maxConnections, Math.max(16, fileLimit - RESERVED_FILE_DESCRIPTORS))
  limits.maxConnectionsPerClient = Math.min(limits.maxConnectionsPerClient, limits.maxConnections)
  limits.maxStreamsPerClient = Math.min(limits.maxStreamsPerClient, limits.maxStreams)
  return limits
}

/** The soft limit on open files (RLIMIT_NOFILE) where the system tells it (Linux), else undefined. */
export function openFileLimit(): number | undefined {
  try {
    const line = /^Max open files\s+(\d+)/m.exec(fs.readFileSync('/proc/self/limits', 'utf8'))
    return line ? Number(line[1]) : undefined
  } catch {
    return undefined
  }
}

const loopback = new net.BlockList()
loopback.addSubnet('127.0.0.0', 8, 'ipv4')
loopback.addAddress('::1', 'ipv6')

/** Whether binding `host` keeps the sandbox on this machine: a loopback address, or localhost. */
export function isLoopbackHost(host: string): boolean {
  if (host === 'localhost') return true
  const family = net.isIP(host)
  if (family === 0) return false
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(host)
  if (mapped) return loopback.check(mapped[1]!, 'ipv4')
  return loopback.check(host, family === 4 ? 'ipv4' : 'ipv6')
}
