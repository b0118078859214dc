// Starts and stops a sandbox (`paybox sandbox start`, and tests in-process): the database, the services
// on it (sandbox-core.ts) and HTTP; its state can be swapped behind a request gate (state-swap.ts).
import type http from 'node:http'
import type { AddressInfo } from 'node:net'
import type { SandboxIdentity } from './context.js'
import { systemClock, type AdvanceableClock, type Clock } from './clock.js'
import type { SandboxContext } from './context.js'
import { openDatabase } from './db/database.js'
import { DEFAULT_HOST, DEFAULT_PORT } from './defaults.js'
import { answerClientError, createSandboxServer, listen, shutDown, trackResponses } from './app/sandbox-server.js'
import { createRateLimits } from './limits/rate-limiter.js'
import { isLoopbackHost, limitsFor, type SandboxLimits } from './limits/sandbox-limits.js'
import type { MerchantCredentials } from './merchants/merchant-service.js'
import { RequestLog } from './request-log/request-log.js'
import { CoreBuilder } from './app/sandbox-core.js'
import { StateSwap } from './app/state-swap.js'
import type { SnapshotStore } from './snapshots/snapshot-store.js'
import { createSnapshotStore } from './snapshots/snapshot-stores.js'
import type { WebhookDispatcher } from './webhooks/webhook-dispatcher.js'
import { egressPolicyOf } from './webhooks/egress-policy.js'

export { DEFAULT_HOST, DEFAULT_PORT } from './defaults.js'
export { SandboxConfigError } from './config-error.js'

export interface SandboxOptions {
  /** 0 picks any free port. */
  port?: number
  host?: string
  /** Database file, or ':memory:'. */
  db: string
  /** Base of hostedUrl, shortUrl and page links; defaults to http://host:port. */
  publicUrl?: string
  /** Makes every generated key, id and ledger keypair deterministic. */
  seed?: string
  /** Fixed credentials for the default direct merchant on a new database (an existing one must already have them). */
  defaultCredentials?: { apiKey: string; apiSecret: string }
  /** A new database starts with business time frozen at this instant (ms), genesis included. */
  frozenAt?: number
  /** Where snapshots are kept; default: a `snapshots` folder next to the database file (a temporary one for :memory:). */
  snapshotDir?: string
  /** synchronous=FULL: acknowledged writes survive power loss too. */
  durable?: boolean
  /** How long a write waits for another's lock (and, on PostgreSQL, a statement may run) before a 503; default 10 s. */
  busyTimeoutMs?: number
  /** Real time, used for authentication; tests may inject one. */
  wallClock?: Clock
  /** 'instant' closes a ledger per transaction (for tests); otherwise the close interval in ms. Default 5000, like Stellar. */
  ledgerClose?: 'instant' | number
  /** How often due work (expiry…) is processed in the background; 0 turns it off. Default 1 s. */
  dueWorkIntervalMs?: number
  /** Business time for the simulation; defaults to the wall clock plus the time advanced so far. */
  clock?: AdvanceableClock
  /** Skip (do not send) webhooks to plain-http URLs. */
  requireHttps?: boolean
  /** On a shared sandbox, CIDR ranges, addresses or hosts webhooks may go to anyway (--allow-webhook-to). */
  allowWebhookTo?: string[]
  /** How long a webhook receiver has to answer; default 10 s (spec 6). Tests shorten it. */
  webhookTimeoutMs?: number
  /** How often the outbox is polled for another process's writes (this one's commits kick it at once); default 250 ms. */
  webhookPollMs?: number
  /** On PostgreSQL, how long a restore or reset waits for every replica to pause; default 10 s. Tests shorten it. */
  restorePauseTimeoutMs?: number
  /** Stricter defaults for a sandbox others reach over a network (docs/security.md); any non-loopback host turns it on. */
  shared?: boolean
  /** Overrides of the mode's limits (sandbox/limits/sandbox-limits.ts). */
  limits?: Partial<SandboxLimits>
  log?: (line: string) => void
}

export interface RunningSandbox {
  url: string
  port: number
  host: string
  /** The current state's (a restore or reset replaces it; the admin token stays). */
  identity: SandboxIdentity
  merchants: MerchantCredentials[]
  context: SandboxContext
  /** The current state's webhook sender (tests stop it to see a stuck dispatcher). */
  webhookDispatcher: WebhookDispatcher
  server: http.Server
  snapshots: SnapshotStore
  /** Whether the database already held a sandbox when this one started (a joining replica, or a restart): false when it made the genesis. */
  joined: boolean
  /** Whether the stricter --shared defaults apply, and the limits in force. */
  shared: boolean
  limits: SandboxLimits
  /** Every request as it finishes: recent ones, and listeners (the stderr lines of `sandbox start`). */
  requestLog: RequestLog
  stop(): Promise<void>
}

export async function startSandbox(options: SandboxOptions): Promise<RunningSandbox> {
  const host = options.host ?? DEFAULT_HOST
  const wallClock = options.wallClock ?? systemClock
  const log = options.log ?? ((line: string) => process.stderr.write(`${line}\n`))
  const snapshots = await createSnapshotStore({ ...options, pauseTimeoutMs: options.restorePauseTimeoutMs })
  const shared = options.shared === true || !isLoopbackHost(host)
  const limits = limitsFor(shared, options.limits)
  const requestLog = new RequestLog(wallClock)
  const builder = new CoreBuilder(options, {
    wallClock,
    log,
    egressPolicy: egressPolicyOf(shared, options.allowWebhookTo),
    // Outlive a restore or reset: swapping the state must not hand out fresh budgets.
    rateLimits: createRateLimits(limits, wallClock),
    requestLog,
    shared,
    refuseReplays: shared,
    tenants: { maxTenants: limits.maxTenants, merchantOwnClock: limits.merchantOwnClock },
  })

  const firstDb = await openDatabase({
    file: options.db,
    durable: options.durable,
    refuseOpenModes: shared,
    busyTimeoutMs: options.busyTimeoutMs,
  })
  const server = createSandboxServer(limits)
  let state: StateSwap
  let publicUrl: string
  let joined: boolean
  try {
    // Not while another replica replaces the state: the first state is opened once that is over.
    await snapshots.barrier.enter()
    const opened = await builder.open(firstDb)
    joined = opened.joined
    await listen(server, options.port ?? DEFAULT_PORT, host)
    const { port } = server.address() as AddressInfo
    publicUrl = options.publicUrl ?? `http://${host.includes(':') ? `[${host}]` : host}:${port}`
    state = await StateSwap.start(builder, { db: firstDb, state: opened }, { publicUrl, snapshots, log })
  } catch (error) {
    if (server.listening) server.close()
    await firstDb.destroy()
    await snapshots.barrier.leave()
    throw error
  }
  const { port } = server.address() as AddressInfo
  if (shared && options.shared !== true)
    log(`Note: ${host} is not a loopback address, so shared mode is on (rate limits, tighter bounds: docs/security.md)`)
  const inFlight = trackResponses(server)
  server.on('clientError', answerClientError)
  server.on('request', (req: http.IncomingMessage, res: http.ServerResponse) => {
    requestLog.track(req, res)
    state.admit(req, res)
  })

  let stopping: Promise<void> | undefined
  const stop = () => {
    if (stopping === undefined) {
      state.refuseSwaps()
      stopping = shutDown(server, inFlight, () => state.stop())
    }
    return stopping
  }
  return {
    url: publicUrl,
    port,
    host,
    get identity() {
      return state.core.context.identity
    },
    get merchants() {
      return state.core.merchants
    },
    get context() {
      return state.core.context
    },
    get webhookDispatcher() {
      return state.core.webhookDispatcher
    },
    server,
    snapshots,
    joined,
    shared,
    limits,
    requestLog,
    stop,
  }
}
