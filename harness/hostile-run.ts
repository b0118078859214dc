// Runs the hostile-input suite against a real sandbox and judges every answer: the CI test
// (test/e2e/hostile-input.test.ts) sends 3,000 cases, the bench calls runHostile({cases: 10_000}).
// Nothing here imports vitest, so the bench can load it with tsx.
import { DashboardCookies } from '../sandbox/dashboard/dashboard-sign-in.js'
import { createApp } from '../sandbox/app/app.js'
import type { RunningSandbox } from '../sandbox/server.js'
import {
  casesPerRoute,
  generateHostileCases,
  generateRouteCases,
  listRoutes,
  sendHostile,
  type HostileCase,
  type HostileCredentials,
  type RouteInfo,
} from './hostile/index.js'
import { rawRequest, startTestSandbox, type RawResponse, type TestSandbox } from './sandbox.js'

export const CI_SEED = 0x5eed_2026
export const CI_CASES = 3_000
/**
 * The suite's sandbox runs in the process that generates and judges thousands of cases, which
 * holds its one event loop for seconds: a kept-alive connection must outlive that, or the
 * server's overdue idle timer closes it under the next request (ECONNRESET, not a finding).
 */
export const HOSTILE_SANDBOX_OPTIONS = { limits: { keepAliveTimeoutMs: 60_000 } }
/** Each route must be reached by at least this many cases, or the suite is incomplete. */
export const MIN_CASES_PER_ROUTE = 3

const STACK_TRACE = /    at |\.ts:/
const NOT_A_JSON_OBJECT = 'body is not a JSON object'

export interface Outcome {
  case: HostileCase
  /** Undefined when no answer came (the connection broke or the request timed out). */
  response?: RawResponse
  error?: string
}

/**
 * An admin's dashboard session on `sandbox`, signed in as a browser does: a sign-in link from the
 * admin API, redeemed for the session cookie, and the CSRF token its pages' forms carry.
 */
export async function dashboardSession(
  sandbox: Pick<TestSandbox, 'url' | 'admin'>,
  alsoServedBy: readonly string[] = [],
): Promise<{ cookie: string; csrfToken: string }> {
  const { url } = await sandbox.admin.sandbox.dashboardLink()
  const redeemed = await fetch(url, { redirect: 'manual' })
  const pairs = redeemed.headers.getSetCookie().map((line) => line.split(';')[0]!)
  // Sessions live in the database, but a cookie is named after its sandbox's port: the same
  // session is sent to each other replica (`alsoServedBy`, their base URLs) under its own name.
  const sessionName = new DashboardCookies(sandbox.url).session
  const session = pairs.find((pair) => pair.startsWith(`${sessionName}=`))?.slice(sessionName.length + 1)
  const cookie = [...pairs, ...alsoServedBy.map((other) => `${new DashboardCookies(other).session}=${session}`)].join('; ')
  const page = await fetch(new URL('/dashboard/payments', sandbox.url), { headers: { cookie } })
  const csrfToken = /name="csrf_token" value="([^"]+)"/.exec(await page.text())?.[1]
  if (redeemed.status !== 303 || session === undefined || page.status !== 200 || csrfToken === undefined)
    throw new Error(`signing in to the dashboard failed: ${redeemed.status}, then ${page.status}`)
  return { cookie, csrfToken }
}

/** The hand-written cases, then route cases up to `total` in all, numbered as one list. */
export function hostileSuite(seed: number, creds: HostileCredentials, routes: readonly RouteInfo[], total: number): HostileCase[] {
  const curated = generateHostileCases(seed, creds)
  return [...curated, ...generateRouteCases(seed, routes, creds, total - curated.length, curated.length)]
}

// The app is built again with every optional control present, only to be listed (nothing in it is called).
export function sandboxRoutes(sandbox: RunningSandbox): RouteInfo[] {
  const notForListing = () => Promise.reject(new Error('this app was built only to list its routes'))
  return listRoutes(
    createApp(sandbox.context, {
      state: { snapshots: sandbox.snapshots, restore: notForListing, reset: notForListing, currentDb: () => sandbox.context.db },
    }),
  )
}

/** Everything wrong with one answer, or [] when it is what the case expects. */
export function problems({ case: c, response, error }: Outcome): string[] {
  if (!response) return [`no answer: ${error ?? 'unknown error'}`]
  const found: string[] = []
  const { status, text, json } = response
  const type = response.headers.get('content-type') ?? ''
  if (STACK_TRACE.test(text)) found.push('body contains a stack trace')
  if (status >= 500) found.push(`status ${status} (server error)`)
  const errorBody = () => {
    if (typeof json !== 'object' || json === null || Array.isArray(json)) {
      found.push(NOT_A_JSON_OBJECT)
      return
    }
    const body = json as Record<string, unknown>
    if (typeof body.statusCode !== 'number' || body.statusCode !== status)
      found.push(`statusCode ${String(body.statusCode)} does not equal the HTTP status`)
    if (typeof body.reason !== 'string' || body.reason === '') found.push('reason is not a non-empty string')
    if (typeof body.message !== 'string') found.push('message is not a string')
    if (!type.startsWith('application/json')) found.push(`content-type ${type}`)
  }
  switch (c.expect.kind) {
    case 'health':
      if (status !== 200) found.push(`status ${status}, expected 200`)
      if ((json as { status?: unknown } | undefined)?.status !== 'ok') found.push('body is not {"status":"ok"}')
      break
    case 'page':
      if (status !== c.expect.status) found.push(`status ${status}, expected ${c.expect.status}`)
      if (!type.startsWith('text/html')) found.push(`content-type ${type}, expected HTML`)
      break
    case 'error':
      if (status < 400 || status >= 500) found.push(`status ${status} is not 4xx`)
      if (status !== c.expect.status) found.push(`status ${status}, expected ${c.expect.status}`)
      errorBody()
      break
    case 'rejected':
      if (!c.expect.statuses.includes(status)) found.push(`status ${status}, expected one of ${c.expect.statuses.join(', ')}`)
      if (!(c.expect.pageAllowed && type.startsWith('text/html'))) errorBody()
      break
  }
  return found
}

/** One line that names the case and what was wrong, enough to replay it with the seed. */
export function describeFailure(seed: number, outcome: Outcome, found: string[]): string {
  const c = outcome.case
  const body =
    c.body === undefined ? '' : typeof c.body === 'string' ? c.body : `<bytes ${Buffer.from(c.body).toString('hex').slice(0, 80)}>`
  const answer = outcome.response?.text.slice(0, 200) ?? ''
  return `seed ${seed} ${c.name}: ${found.join('; ')} | sent ${c.method} ${c.path.slice(0, 150)} ${body.slice(0, 120)} | got ${answer}`
}

/** Sends the cases one at a time, in order, so a run is the same every time; stops sending once `signal` aborts. */
export async function sendAll(
  baseUrl: string,
  cases: readonly HostileCase[],
  creds: HostileCredentials,
  signal?: AbortSignal,
): Promise<Outcome[]> {
  const outcomes: Outcome[] = []
  for (const c of cases) {
    if (signal?.aborted) break
    try {
      outcomes.push({ case: c, response: await sendHostile(baseUrl, c, creds) })
    } catch (error) {
      outcomes.push({ case: c, error: error instanceof Error ? `${error.name}: ${error.message}` : String(error) })
    }
  }
  return outcomes
}

export interface FingerprintMerchant {
  id: string
  apiKey: string
  apiSecret: string
}

/**
 * What a refused request must not change, read over HTTP: each merchant's payments, refunds,
 * invoices, invoice counter, webhook log and profile; the merchants; the ledger (accounts,
 * balances, sequences, last transaction); the business clock's settings.
 */
export async function stateFingerprint(
  baseUrl: string,
  merchants: readonly FingerprintMerchant[],
  adminToken: string,
): Promise<Record<string, unknown>> {
  const read = async (path: string, as?: FingerprintMerchant): Promise<unknown> => {
    const response = await rawRequest(baseUrl, { method: 'GET', path, as, headers: as ? {} : { 'x-sandbox-admin-token': adminToken } })
    if (response.status !== 200) throw new Error(`GET ${path} answered ${response.status}: ${response.text.slice(0, 200)}`)
    return response.json
  }
  const total = async (path: string, as: FingerprintMerchant) =>
    ((await read(path, as)) as { meta: { totalItems: number } }).meta.totalItems
  const state: Record<string, unknown> = {}
  for (const merchant of merchants) {
    state[merchant.id] = {
      payments: await total('/payments?limit=1', merchant),
      refunds: await total('/refunds?limit=1', merchant),
      invoices: await total('/invoices?limit=1', merchant),
      invoiceSettings: await read('/invoices/settings', merchant),
      webhookLog: await total(`/merchants/${merchant.id}/webhook-logs?limit=1`, merchant),
      profile: await read('/merchant', merchant),
    }
  }
  state.merchants = await read('/sandbox/merchants')
  state.ledgerAccounts = await read('/sandbox/ledger/accounts')
  state.lastLedgerTransaction = ((await read('/sandbox/ledger/transactions?order=desc&limit=1')) as { items: unknown[] }).items
  // The clock's settings (offset, frozen or not), not the time it reads.
  const { now: _now, ...clock } = (await read('/sandbox/clock')) as { now: string }
  state.clock = clock
  return state
}

export interface HostileRunOptions {
  /** How many cases in all (hand-written ones included); at least the systematic ones are sent. */
  cases?: number
  seed?: number
  /** Stops sending (the bench's time budget): the cases not sent are reported, not judged. */
  signal?: AbortSignal
  /** 2: a second sandbox on the same database takes every other case (replicas, issue 17). */
  replicas?: 1 | 2
}

export interface HostileRunReport {
  seed: number
  cases: number
  /** Cases sent: all of them unless `signal` stopped the run. */
  sent: number
  durationMs: number
  /** One line per case that was not answered as expected; empty when the run passed. */
  failures: string[]
  /** Answers that had to carry a JSON error body and carried something else (also in failures). */
  nonJsonErrorBodies: number
  /** How many answers had each status. */
  statuses: Record<number, number>
  /** Routes reached by fewer than MIN_CASES_PER_ROUTE cases. */
  uncoveredRoutes: string[]
  /** What the refused requests changed; empty when nothing. */
  stateChanges: string[]
  healthyAfter: boolean
}

/** Passes when every case was sent, failures, uncoveredRoutes and stateChanges are empty and healthyAfter is true. */
export async function runHostile(options: HostileRunOptions = {}): Promise<HostileRunReport> {
  const seed = options.seed ?? CI_SEED
  const sandbox = await startTestSandbox(HOSTILE_SANDBOX_OPTIONS)
  const other = options.replicas === 2 ? await startTestSandbox({ ...HOSTILE_SANDBOX_OPTIONS, db: sandbox.dbFile }) : undefined
  try {
    const [direct, escrow] = sandbox.merchants
    const creds: HostileCredentials = {
      direct: direct!,
      escrow: escrow!,
      adminToken: sandbox.identity.adminToken,
      dashboard: await dashboardSession(sandbox, other ? [other.url] : []),
    }
    const routes = sandboxRoutes(sandbox)
    const cases = hostileSuite(seed, creds, routes, options.cases ?? CI_CASES)
    const before = await stateFingerprint(sandbox.url, sandbox.merchants, creds.adminToken)
    const started = performance.now()
    const outcomes =
      other === undefined
        ? await sendAll(sandbox.url, cases, creds, options.signal)
        : (
            await Promise.all([
              sendAll(
                sandbox.url,
                cases.filter((_, i) => i % 2 === 0),
                creds,
                options.signal,
              ),
              sendAll(
                other.url,
                cases.filter((_, i) => i % 2 === 1),
                creds,
                options.signal,
              ),
            ])
          ).flat()
    const durationMs = Math.round(performance.now() - started)
    const after = await stateFingerprint(sandbox.url, sandbox.merchants, creds.adminToken)
    const healths = await Promise.all(
      [sandbox, ...(other ? [other] : [])].map((s) => rawRequest(s.url, { method: 'GET', path: '/health' })),
    )

    const statuses: Record<number, number> = {}
    for (const { response } of outcomes) if (response) statuses[response.status] = (statuses[response.status] ?? 0) + 1
    const judged = outcomes.map((outcome) => ({ outcome, found: problems(outcome) })).filter(({ found }) => found.length > 0)
    return {
      seed,
      cases: cases.length,
      sent: outcomes.length,
      durationMs,
      failures: judged.map(({ outcome, found }) => describeFailure(seed, outcome, found)),
      nonJsonErrorBodies: judged.filter(({ found }) => found.includes(NOT_A_JSON_OBJECT)).length,
      statuses,
      uncoveredRoutes: [...casesPerRoute(cases, routes)]
        .filter(([, n]) => n < MIN_CASES_PER_ROUTE)
        .map(([route, n]) => `${route} (${n} cases)`),
      stateChanges: Object.keys({ ...before, ...after })
        .filter((key) => JSON.stringify(before[key]) !== JSON.stringify(after[key]))
        .map((key) => `${key}: ${JSON.stringify(before[key]).slice(0, 300)} → ${JSON.stringify(after[key]).slice(0, 300)}`),
      healthyAfter: healths.every((health) => health.status === 200 && (health.json as { status?: string } | undefined)?.status === 'ok'),
    }
  } finally {
    // The second first: stopping the first drops a PostgreSQL test database.
    await other?.stop()
    await sandbox.stop()
  }
}
