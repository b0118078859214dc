// Starts and stops a sandbox: opens and migrates the database, seeds it on first start, and
// serves the API over HTTP. Used by `paybox sandbox start` and, in-process, by tests.
import http from 'node:http'
import type { AddressInfo } from 'node:net'
import type { Duplex } from 'node:stream'
import { bootstrap, countBoot, type SandboxIdentity } from './bootstrap.js'
import { BusinessClock, systemClock, type AdvanceableClock, type Clock } from './clock.js'
import type { SandboxContext } from './context.js'
import { openDatabase } from './db/database.js'
import { DEFAULT_HOST, DEFAULT_PORT } from './defaults.js'
import { createApp } from './http/app.js'
import { isStream } from './http/streams.js'
import { LedgerCloser } from './ledger/ledger-closer.js'
import { LedgerService } from './ledger/ledger-service.js'
import { listMerchants } from './merchants/merchant-repository.js'
import { paymentReceiver } from './payments/payment-receipts.js'
import { toMerchantCredentials, type MerchantCredentials } from './merchants/merchant-service.js'
import { cryptoRandom, seededRandom } from './random.js'
import { completeSettlements } from './settlement/settlement-service.js'
import { readAdvancedMs } from './simulation/clock-service.js'
import { DUE_WORK_INTERVAL_MS, startDueWorkSweeper } from './simulation/due-work-sweeper.js'
import { WebhookDispatcher } from './webhooks/webhook-dispatcher.js'

export { DEFAULT_HOST, DEFAULT_PORT } from './defaults.js'

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
  /** Fixed credentials for the default direct merchant on a new database. */
  defaultCredentials?: { apiKey: string; apiSecret: string }
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
  /** How long a webhook receiver has to answer; default 10 s (spec 6). Tests shorten it. */
  webhookTimeoutMs?: number
  /** How often queued webhooks are looked for; default 100 ms. */
  webhookPollMs?: number
  log?: (line: string) => void
}

export interface RunningSandbox {
  url: string
  port: number
  host: string
  identity: SandboxIdentity
  merchants: MerchantCredentials[]
  context: SandboxContext
  server: http.Server
  /** Stops accepting, lets in-flight requests finish, then closes the database. */
  stop(): Promise<void>
}

const SHUTDOWN_GRACE_MS = 5_000
export const DEFAULT_LEDGER_CLOSE_MS = 5_000

export async function startSandbox(options: SandboxOptions): Promise<RunningSandbox> {
  const host = options.host ?? DEFAULT_HOST
  const wallClock = options.wallClock ?? systemClock
  const log = options.log ?? ((line: string) => process.stderr.write(`${line}\n`))
  const db = await openDatabase({ file: options.db, durable: options.durable })
  try {
    const clock = options.clock ?? new BusinessClock(wallClock, await readAdvancedMs(db))
    const boot = await countBoot(db)
    const random = options.seed === undefined ? cryptoRandom : seededRandom(options.seed, `boot:${boot}`)
    const identity = await bootstrap(db, random, clock.now(), options.defaultCredentials)
    const server = http.createServer()
    await listen(server, options.port ?? DEFAULT_PORT, host)
    const { port } = server.address() as AddressInfo
    const publicUrl = options.publicUrl ?? `http://${host.includes(':') ? `[${host}]` : host}:${port}`
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
      timeoutMs: options.webhookTimeoutMs,
      pollMs: options.webhookPollMs,
      log,
    })
    const context: SandboxContext = { db, clock, wallClock, random, publicUrl, identity, ledger, webhooks, log }
    ledger.onApplied(paymentReceiver(context))
    ledger.onClosed(completeSettlements)
    const closer = ledgerClose === 'instant' ? undefined : new LedgerCloser(db, ledger, { intervalMs: ledgerClose, onError: (e) => log(`Ledger close failed: ${String(e)}`) })
    closer?.start()
    const inFlight = trackResponses(server)
    server.on('clientError', answerClientError)
    server.on('request', createApp(context))
    const merchants = (await listMerchants(db)).map(toMerchantCredentials)

    const sweeper = startDueWorkSweeper(context, options.dueWorkIntervalMs ?? DUE_WORK_INTERVAL_MS)
    await webhooks.start()
    let stopping: Promise<void> | undefined
    const stop = () =>
      (stopping ??= shutDown(server, inFlight, async () => {
        await sweeper.stop()
        await closer?.stop()
        await webhooks.stop()
        await db.destroy()
      }))
    return { url: publicUrl, port, host, identity, merchants, context, server, stop }
  } catch (error) {
    await db.destroy()
    throw error
  }
}

function listen(server: http.Server, port: number, host: string): Promise<void> {
  return new Promise((resolve, reject) => {
    server.once('error', reject)
    server.listen(port, host, () => {
      server.off('error', reject)
      resolve()
    })
  })
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
  const status = error.code === 'HPE_HEADER_OVERFLOW' ? 431 : 400
  const reason = status === 431 ? 'Request Header Fields Too Large' : 'Bad Request'
  const body = JSON.stringify({ statusCode: status, reason, message: status === 431 ? 'Request headers are too large' : 'Malformed HTTP request' })
  socket.end(
    `HTTP/1.1 ${status} ${reason}\r\nContent-Type: application/json; charset=utf-8\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
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
