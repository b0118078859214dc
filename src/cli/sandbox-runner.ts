// `paybox sandbox start` in this process. The server is passed in (`start`): src/ reaches the
// sandbox's code only through the command.
import { HORIZON_PATH } from '../api/paths.js'
import { redactDatabaseLocation } from '../database-location.js'
import type { RequestLogEntry } from '../client/types.js'
import { clearLocalSandbox, writeLocalSandbox } from '../config/local-sandbox.js'
import { dataDir } from '../config/paths.js'
import { claimSandboxPid, clearSandboxPid, SandboxAlreadyRunning } from '../config/sandbox-process.js'
import { renderBanner, type SandboxBanner } from './render/sandbox.js'
import { onStopRequest } from './stop-requests.js'

/** What the runner passes to `start` (the server's own options take the same names). */
export interface InProcessSandboxOptions {
  port: number
  host: string
  db: string
  publicUrl?: string
  seed?: string
  frozenAt?: number
  snapshotDir: string
  durable?: boolean
  requireHttps?: boolean
  allowWebhookTo?: string[]
  shared?: boolean
  ledgerClose: 'instant' | number
  defaultCredentials?: { apiKey: string; apiSecret: string }
}

export interface InProcessSandbox {
  url: string
  identity: { adminToken: string; networkPassphrase: string }
  merchants: SandboxBanner['merchants']
  joined: boolean
  requestLog: { onRecord(listener: (entry: RequestLogEntry) => void): unknown }
  stop(): Promise<void>
}

export interface SandboxRun {
  /** The sandbox's options; `db` is also the database the banner names. */
  options: InProcessSandboxOptions
  /** The banner as one JSON line on stdout instead of text. */
  json: boolean
  /** No line per API request on stderr. */
  quiet: boolean
  /**
   * A sandbox of its own (an explicit --db, or port 0: a test harness's): if this data folder's
   * registered sandbox is running, it runs unregistered beside it instead of being refused.
   */
  mayRunUnregistered: boolean
  /** Stop when the process that started this one dies (not for a detached sandbox, which outlives it by design). */
  followParent: boolean
  /** The terminal's columns, which the banner fits; undefined without a terminal. */
  width?: number
  log: (line: string) => void
}

const afterServingWork: Array<() => void> = []

/** Work for once this process's sandbox serves and has said so (bin/run.js saves its code cache then). */
export function afterServing(work: () => void): void {
  afterServingWork.push(work)
}

/** Starts the sandbox and serves until a stop request (onStopRequest); resolves once it has stopped. */
export async function runSandbox(start: (options: InProcessSandboxOptions) => Promise<InProcessSandbox>, run: SandboxRun): Promise<void> {
  // A PostgreSQL URL's password stays out of the banner and the log.
  const database = redactDatabaseLocation(run.options.db)
  // Before the database opens: a second registered sandbox from this data folder is refused, not started.
  const registeredElsewhere = claimRegistration(run.mayRunUnregistered)
  const registered = registeredElsewhere === undefined
  const sandbox = await start(run.options).catch((error: unknown) => {
    if (registered) clearSandboxPid(process.pid)
    throw error
  })
  const banner: SandboxBanner = {
    baseUrl: sandbox.url,
    horizonUrl: `${sandbox.url}${HORIZON_PATH}`,
    adminToken: sandbox.identity.adminToken,
    networkPassphrase: sandbox.identity.networkPassphrase,
    database,
    joined: sandbox.joined,
    merchants: sandbox.merchants,
  }
  // Listen before announcing readiness: whoever reads the banner may signal at once.
  const stopRequested = new Promise<void>((resolve) => {
    onStopRequest(
      (why) => {
        process.stderr.write(`\n${why}: finishing in-flight requests and closing the database\n`)
        resolve()
      },
      { followParent: run.followParent },
    )
  })
  if (registered) writeLocalSandbox({ baseUrl: sandbox.url, adminToken: banner.adminToken, pid: process.pid, merchants: sandbox.merchants })
  else {
    const other = `${registeredElsewhere.baseUrl ?? 'the sandbox'} (pid ${registeredElsewhere.pid})`
    process.stderr.write(
      `Not registered: ${other} is ${dataDir()}'s sandbox, which the CLI uses by default; reach this one with --base-url ${sandbox.url} and its keys\n`,
    )
  }
  // With --json, stdout is the banner alone; a log (that of a detached sandbox) still says when it started.
  if (run.json) process.stderr.write(`Sandbox listening on ${sandbox.url} (pid ${process.pid}, database ${database})\n`)
  // Request lines too start before the banner: a request sent as soon as it is read gets its line.
  if (!run.quiet) await printRequests(sandbox.requestLog)
  run.log(run.json ? JSON.stringify(banner) : renderBanner(banner, { width: run.width }))
  for (const work of afterServingWork.splice(0)) setImmediate(work)

  await stopRequested
  await sandbox.stop()
  if (registered) {
    clearLocalSandbox(process.pid)
    clearSandboxPid(process.pid)
  }
  process.stderr.write('Sandbox stopped\n')
}

/** Registers this process as the data folder's sandbox; else, where it may run unregistered, the one that is. */
function claimRegistration(mayRunUnregistered: boolean): SandboxAlreadyRunning | undefined {
  try {
    claimSandboxPid(process.pid)
    return undefined
  } catch (error) {
    if (mayRunUnregistered && error instanceof SandboxAlreadyRunning) return error
    throw error
  }
}

// One write per turn of the event loop: a busy sandbox does not pay a write per request.
async function printRequests(requestLog: InProcessSandbox['requestLog']): Promise<void> {
  const { requestLine } = await import('./render/request-logs.js')
  let pending = ''
  const flush = () => {
    process.stderr.write(pending)
    pending = ''
  }
  requestLog.onRecord((entry) => {
    if (pending === '') setImmediate(flush)
    pending += `${requestLine(entry)}\n`
  })
}
