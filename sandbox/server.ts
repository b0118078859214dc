// Starts and stops a sandbox: opens and migrates the database, seeds it on first start, and
// serves the API over HTTP. Used by `paybox sandbox start` and, in-process, by tests. While it
// runs, its whole state can be swapped for a snapshot's or a fresh genesis behind a request gate.
import fs from 'node:fs'
import http from 'node:http'
import type { AddressInfo } from 'node:net'
import os from 'node:os'
import path from 'node:path'
import type { Duplex } from 'node:stream'
import { bootstrap, countBoot, isNewSandbox, type SandboxIdentity } from './bootstrap.js'
import { systemClock, toIso, type AdvanceableClock, type Clock } from './clock.js'
import { SandboxConfigError } from './config-error.js'
import type { SandboxContext } from './context.js'
import { openDatabase, withCommittedHandle, type SandboxDb } from './db/database.js'
import { DEFAULT_HOST, DEFAULT_PORT } from './defaults.js'
import { HealthService } from './health/health-service.js'
import { createApp } from './http/app.js'
import { ConnectionGuard } from './http/connection-guard.js'
import { withFastRoutes } from './http/fast-routes.js'
import { isStream } from './http/streams.js'
import { LedgerCloser } from './ledger/ledger-closer.js'
import { LedgerService } from './ledger/ledger-service.js'
import { createRateLimits } from './limits/rate-limiter.js'
import { isLoopbackHost, limitsFor, type SandboxLimits } from './limits/sandbox-limits.js'
import { findMerchantByApiKey, listMerchants } from './merchants/merchant-repository.js'
import { PaymentChangeWriter } from './payments/payment-changes.js'
import { paymentAnswers } from './payments/payment-routes.js'
import { wireReactions } from './reactions.js'
import { toMerchantCredentials, type MerchantCredentials } from './merchants/merchant-service.js'
import { cryptoRandom, seededRandom, type RandomSource } from './random.js'
import { newRequestId, REQUEST_ID_HEADER, RequestLog } from './request-log/request-log.js'
import { loadBusinessClock, readFrozenAtMs, writeFrozenAt } from './simulation/clock-service.js'
import { DUE_WORK_INTERVAL_MS, startDueWorkSweeper } from './simulation/due-work-sweeper.js'
import { GateBusyError, RequestGate } from './snapshots/request-gate.js'
import type { SandboxStateControls, StateSwapResult } from './snapshots/snapshot-routes.js'
import { SnapshotStore, swapDatabaseFile } from './snapshots/snapshot-store.js'
import { WebhookDispatcher } from './webhooks/webhook-dispatcher.js'
import { AllowListError, WebhookEgress } from './webhooks/webhook-egress.js'

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
  /** How often queued webhooks are looked for; default 100 ms. */
  webhookPollMs?: number
  /**
   * Stricter defaults for a sandbox others reach over a network (docs/security.md): rate limits,
   * tighter connection and stream bounds, a private database file. Any non-loopback host turns it on.
   */
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
  /** Whether the stricter --shared defaults apply, and the limits in force. */
  shared: boolean
  limits: SandboxLimits
  /** Every request as it finishes: recent ones, and listeners (the stderr lines of `sandbox start`). */
  requestLog: RequestLog
  /** Stops accepting, lets in-flight requests finish, then closes the database. */
  stop(): Promise<void>
}

const SHUTDOWN_GRACE_MS = 5_000
export const DEFAULT_LEDGER_CLOSE_MS = 5_000

/** The services running on one state (database): replaced whole by a restore or reset. */
interface Core {
  context: SandboxContext
  webhookDispatcher: WebhookDispatcher
  merchants: MerchantCredentials[]
  app: http.RequestListener
  /** Stops the background work and closes the database. */
  stop(): Promise<void>
}

export async function startSandbox(options: SandboxOptions): Promise<RunningSandbox> {
  const host = options.host ?? DEFAULT_HOST
  const wallClock = options.wallClock ?? systemClock
  const log = options.log ?? ((line: string) => process.stderr.write(`${line}\n`))
  const snapshots = new SnapshotStore(options.snapshotDir ?? defaultSnapshotDir(options.db))
  const shared = options.shared === true || !isLoopbackHost(host)
  const limits = limitsFor(shared, options.limits)
  const egress = webhookEgress(shared, options.allowWebhookTo)
  // Outlive a restore or reset: swapping the state must not hand out fresh budgets.
  const rateLimits = createRateLimits(limits, wallClock)
  const requestLog = new RequestLog(wallClock)

  /** Counts the boot, seeds a new database and checks the options an existing one must match. */
  async function openState(db: SandboxDb, keepAdminToken?: string) {
    const fresh = await isNewSandbox(db)
    if (fresh && options.frozenAt !== undefined && options.clock === undefined) await writeFrozenAt(db, options.frozenAt)
    const clock = options.clock ?? (await loadBusinessClock(db, wallClock))
    const boot = await countBoot(db)
    // Each boot (and each restore or reset) draws its own stream, so no value repeats.
    const random: RandomSource = options.seed === undefined ? cryptoRandom : seededRandom(options.seed, `boot:${boot}`)
    const identity = await bootstrap(db, random, clock.now(), { defaultCredentials: options.defaultCredentials, adminToken: keepAdminToken })
    if (!fresh && keepAdminToken === undefined) await checkExistingDatabase(db)
    return { clock, random, identity }
  }

  async function checkExistingDatabase(db: SandboxDb): Promise<void> {
    const fixed = options.defaultCredentials
    if (fixed) {
      const merchant = await findMerchantByApiKey(db, fixed.apiKey)
      if (merchant?.api_secret !== fixed.apiSecret) {
        throw new SandboxConfigError(
          `${options.db} was created with other keys: --api-key/--api-secret only apply to a new database ` +
            '(start on a new --db, or run paybox sandbox reset once it runs)',
        )
      }
    }
    if (options.frozenAt !== undefined && options.clock === undefined && (await readFrozenAtMs(db)) !== options.frozenAt) {
      log(`Note: --frozen-at only applies to a new database; ${options.db} keeps its own business time (see paybox sandbox clock freeze)`)
    }
  }

  async function startCore(db: SandboxDb, state: Awaited<ReturnType<typeof openState>>, publicUrl: string): Promise<Core> {
    const { clock, random, identity } = state
    const ledgerClose = options.ledgerClose ?? DEFAULT_LEDGER_CLOSE_MS
    const ledger = new LedgerService({
      clock,
      closeMode: ledgerClose === 'instant' ? 'instant' : 'timer',
      networkPassphrase: identity.networkPassphrase,
    })
    const webhooks = new WebhookDispatcher({
      db,
      clock,
      requireHttps: options.requireHttps,
      egress,
      timeoutMs: options.webhookTimeoutMs,
      pollMs: options.webhookPollMs,
      log,
    })
    const context: SandboxContext = { db, clock, wallClock, random, publicUrl, identity, ledger, payments: new PaymentChangeWriter(), webhooks, log, rateLimits }
    wireReactions(context)
    const closer = ledgerClose === 'instant' ? undefined : new LedgerCloser(db, ledger, { intervalMs: ledgerClose, onError: (e) => log(`Ledger close failed: ${String(e)}`) })
    closer?.start()
    const health = new HealthService(context, { webhookTimeoutMs: options.webhookTimeoutMs, wallClock })
    // The busiest payment requests skip Express; both answer through the same PaymentAnswers.
    const payments = paymentAnswers(context)
    const app = withFastRoutes(context, payments, createApp(context, { health, state: controls, payments, requestLog }))
    const merchants = (await listMerchants(db)).map(toMerchantCredentials)
    const sweeper = startDueWorkSweeper(context, options.dueWorkIntervalMs ?? DUE_WORK_INTERVAL_MS)
    await webhooks.start()
    return {
      context,
      webhookDispatcher: webhooks,
      merchants,
      app,
      stop: async () => {
        await sweeper.stop()
        await closer?.stop()
        await webhooks.stop()
        await db.destroy()
      },
    }
  }

  const gate = new RequestGate()
  let core: Core | undefined
  let publicUrl = ''
  let stopping: Promise<void> | undefined
  /** The last swap, which stopping waits for before closing the database. */
  let swapping: Promise<void> = Promise.resolve()

  /**
   * Replaces the running state: stops the services and closes the database, lets `replace`
   * put another database in its place, and starts the services on it. If that fails, the
   * previous database is put back and the sandbox carries on with it.
   */
  async function swapState(self: http.ServerResponse, replace: (file: string) => Promise<{ db: SandboxDb; commit(): void; rollback(): Promise<SandboxDb> }>): Promise<StateSwapResult> {
    if (stopping) throw new GateBusyError('The sandbox is stopping')
    const swapped = gate.exclusive(self, async () => {
      const current = core!
      const adminToken = current.context.identity.adminToken
      // An in-memory database dies with its connection: keep an image to fall back on.
      const memoryImage = options.db === ':memory:' ? await withCommittedHandle(current.context.db, (handle) => handle.serialize()) : undefined
      await current.stop()
      const swap = await replace(options.db).catch(async (error: unknown) => {
        core = await startCore(...(await reopen(memoryImage, adminToken)), publicUrl)
        throw error
      })
      try {
        core = await startCore(swap.db, await openState(swap.db, adminToken), publicUrl)
        swap.commit()
      } catch (error) {
        await swap.db.destroy().catch(() => {})
        const db = await swap.rollback()
        core = await startCore(db, await openState(db, adminToken), publicUrl)
        throw error
      }
      const frozenAt = await readFrozenAtMs(core.context.db)
      return { merchants: core.merchants, clock: { now: toIso(core.context.clock.now()), ...(frozenAt === undefined ? {} : { frozenAt: toIso(frozenAt) }) } }
    })
    swapping = swapped.then(
      () => {},
      () => {},
    )
    return swapped
  }

  async function reopen(memoryImage: Buffer | undefined, adminToken: string): Promise<[SandboxDb, Awaited<ReturnType<typeof openState>>]> {
    const db = await openDatabase({ file: options.db, durable: options.durable, image: memoryImage })
    return [db, await openState(db, adminToken)]
  }

  /** Puts `source` (a snapshot file, or nothing for a new database) in place of the database. */
  function replaceWith(source: () => Promise<string | undefined>) {
    return async (file: string) => {
      const from = await source()
      if (file === ':memory:') {
        const db = await openDatabase({ file, durable: options.durable, image: from === undefined ? undefined : fs.readFileSync(from) })
        return { db, commit: () => {}, rollback: () => Promise.reject(new Error('The in-memory state could not be replaced')) }
      }
      const swap = swapDatabaseFile(file, from)
      try {
        const db = await openDatabase({ file, durable: options.durable })
        return { db, commit: swap.commit, rollback: async () => (swap.rollback(), openDatabase({ file, durable: options.durable })) }
      } catch (error) {
        swap.rollback()
        throw error
      }
    }
  }

  const controls: SandboxStateControls = {
    snapshots,
    restore: async (name, self) => {
      // Checked before the gate closes, so a bad snapshot holds no request up; checked once (a full integrity read).
      const file = await snapshots.check(name)
      return swapState(self, replaceWith(async () => file))
    },
    reset: (self) => swapState(self, replaceWith(async () => undefined)),
  }

  const firstDb = await openDatabase({ file: options.db, durable: options.durable, refuseOpenModes: shared })
  const server = http.createServer({
    headersTimeout: limits.headersTimeoutMs,
    requestTimeout: limits.requestTimeoutMs,
    keepAliveTimeout: limits.keepAliveTimeoutMs,
    // How often those timeouts are checked (Node's default, 30 s, would let a slow client overstay them).
    connectionsCheckingInterval: Math.min(1_000, limits.headersTimeoutMs),
  })
  new ConnectionGuard(limits).attach(server)
  try {
    const state = await openState(firstDb)
    await listen(server, options.port ?? DEFAULT_PORT, host)
    const { port } = server.address() as AddressInfo
    publicUrl = options.publicUrl ?? `http://${host.includes(':') ? `[${host}]` : host}:${port}`
    core = await startCore(firstDb, state, publicUrl)
  } catch (error) {
    if (server.listening) server.close()
    await firstDb.destroy()
    throw error
  }
  const { port } = server.address() as AddressInfo
  if (shared && options.shared !== true) log(`Note: ${host} is not a loopback address, so shared mode is on (rate limits, tighter bounds: docs/security.md)`)
  const inFlight = trackResponses(server)
  server.on('clientError', answerClientError)
  server.on('request', (req: http.IncomingMessage, res: http.ServerResponse) => {
    requestLog.track(req, res)
    gate.admit(res, () => core!.app(req, res))
  })

  const stop = () =>
    (stopping ??= shutDown(server, inFlight, async () => {
      await swapping
      await core!.stop()
    }))
  return {
    url: publicUrl,
    port,
    host,
    get identity() {
      return core!.context.identity
    },
    get merchants() {
      return core!.merchants
    },
    get context() {
      return core!.context
    },
    get webhookDispatcher() {
      return core!.webhookDispatcher
    },
    server,
    snapshots,
    shared,
    limits,
    requestLog,
    stop,
  }
}

let memorySandboxes = 0

/** Where webhooks may go; a malformed --allow-webhook-to entry is refused before anything starts. */
function webhookEgress(shared: boolean, allow: string[] | undefined): WebhookEgress {
  try {
    return new WebhookEgress({ shared, allow })
  } catch (error) {
    throw error instanceof AllowListError ? new SandboxConfigError(error.message) : error
  }
}

/** Next to a database file; a sandbox in memory gets a folder of its own under the temporary folder, made on first save. */
function defaultSnapshotDir(db: string): string {
  if (db === ':memory:') return path.join(os.tmpdir(), `paybox-snapshots-${process.pid}-${++memorySandboxes}`)
  return path.join(path.dirname(path.resolve(db)), 'snapshots')
}

function listen(server: http.Server, port: number, host: string): Promise<void> {
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
    return new SandboxConfigError(`--host ${host} is not an IP address or a host name that resolves: use 127.0.0.1, or an address of this machine`)
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
function answerClientError(error: NodeJS.ErrnoException, socket: Duplex): void {
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
function trackResponses(server: http.Server): Set<http.ServerResponse> {
  const active = new Set<http.ServerResponse>()
  server.on('request', (_req: http.IncomingMessage, res: http.ServerResponse) => {
    active.add(res)
    res.once('close', () => active.delete(res))
  })
  return active
}

async function shutDown(server: http.Server, inFlight: Set<http.ServerResponse>, closeDatabase: () => Promise<void>): Promise<void> {
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
