// Starts a real sandbox on a free port with a fresh database, and gives tests clients that
// sign requests exactly as an outside client would.
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { afterAll, beforeAll } from 'vitest'
import { PayboxClient } from '../src/client/paybox-client.js'
import { signDigest } from '../src/signing.js'
import { inOneSnapshot } from '../sandbox/db/database.js'
import { createTestDatabase } from './postgres.js'
import type { SupplyReport } from '../sandbox/ledger/ledger-types.js'
import { startSandbox, type RunningSandbox, type SandboxOptions } from '../sandbox/server.js'

export interface TestSandbox extends RunningSandbox {
  direct: PayboxClient
  escrow: PayboxClient
  admin: PayboxClient
  dbFile: string
}

/** The ledger's supply report, read in one snapshot (checkInvariants throws on broken books). */
export function ledgerSupply(sandbox: Pick<RunningSandbox, 'context'>): Promise<SupplyReport> {
  return inOneSnapshot(sandbox.context.db, (db) => sandbox.context.ledger.checkInvariants(db))
}

export function temporaryDir(prefix = 'paybox-test-'): string {
  return fs.mkdtempSync(path.join(os.tmpdir(), prefix))
}

/** The backend the suites run on: PAYBOX_TEST_BACKEND=postgres (the postgres test project) or SQLite. */
export const testBackend: 'sqlite' | 'postgres' = process.env.PAYBOX_TEST_BACKEND === 'postgres' ? 'postgres' : 'sqlite'

/** A new, empty database for one test sandbox: a file, or a PostgreSQL database dropped when the sandbox stops. */
export async function freshDatabase(): Promise<{ location: string; drop: () => Promise<void> }> {
  if (testBackend === 'sqlite') return { location: path.join(temporaryDir(), 'sandbox.db'), drop: async () => {} }
  const database = await createTestDatabase()
  return { location: database.url, drop: database.drop }
}

export async function startTestSandbox(options: Partial<SandboxOptions> = {}): Promise<TestSandbox> {
  const fresh = options.db === undefined ? await freshDatabase() : undefined
  const dbFile = options.db ?? fresh!.location
  const sandbox = await startSandbox({ port: 0, log: () => {}, ledgerClose: 'instant', ...options, db: dbFile })
  if (fresh) {
    const stop = sandbox.stop.bind(sandbox)
    sandbox.stop = async () => {
      await stop()
      await fresh.drop()
    }
  }
  const [direct, escrow] = sandbox.merchants
  if (!direct || !escrow) throw new Error('the sandbox did not seed its two merchants')
  const clientFor = (m: { apiKey: string; apiSecret: string }) =>
    new PayboxClient({ baseUrl: sandbox.url, apiKey: m.apiKey, apiSecret: m.apiSecret, adminToken: sandbox.identity.adminToken })
  const clients = {
    dbFile,
    direct: clientFor(direct),
    escrow: clientFor(escrow),
    admin: new PayboxClient({ baseUrl: sandbox.url, adminToken: sandbox.identity.adminToken }),
  }
  return withPropertiesOf(clients, sandbox)
}

// The running sandbox's identity, merchants and context are getters (a restore replaces them): a
// spread or Object.assign would freeze their values.
function withPropertiesOf<T extends object, S extends object>(target: T, source: S): T & S {
  return Object.defineProperties(target, Object.getOwnPropertyDescriptors(source)) as T & S
}

/** Shared by the enclosing describe block's tests; filled in by beforeAll, so read it only inside tests and hooks. */
export function sandboxForSuite(options: Partial<SandboxOptions> = {}): TestSandbox {
  const sandbox = {} as TestSandbox
  beforeAll(async () => {
    withPropertiesOf(sandbox, await startTestSandbox(options))
  })
  afterAll(() => sandbox.stop())
  return sandbox
}

export interface RawRequest {
  method: string
  /** Path with query, as sent. */
  path: string
  /** Raw body text, sent as is. */
  body?: string
  headers?: Record<string, string>
  /** Sign as this merchant (default: no auth headers). */
  as?: { apiKey: string; apiSecret: string }
  /** Override what is signed (for near-miss tests). */
  sign?: { path?: string; body?: string; method?: string; timestamp?: string }
}

export interface RawResponse {
  status: number
  headers: Headers
  text: string
  json: unknown
}

/** Sends exactly the bytes given, signing them like an outside client (or deliberately not). */
export async function rawRequest(baseUrl: string, request: RawRequest): Promise<RawResponse> {
  const headers: Record<string, string> = { ...request.headers }
  if (request.body !== undefined && !Object.keys(headers).some((h) => h.toLowerCase() === 'content-type')) {
    headers['content-type'] = 'application/json'
  }
  if (request.as) {
    const timestamp = request.sign?.timestamp ?? String(Math.floor(Date.now() / 1000))
    headers['x-digest-key'] = request.as.apiKey
    headers['x-digest-timestamp'] = timestamp
    headers['x-digest-signature'] = signDigest(request.as.apiSecret, {
      path: request.sign?.path ?? request.path,
      timestamp,
      method: request.sign?.method ?? request.method,
      body: request.sign?.body ?? request.body ?? '',
    })
  }
  const response = await fetch(`${baseUrl}${request.path}`, {
    method: request.method,
    headers,
    body: request.body,
    redirect: 'manual',
  })
  return readResponse(response)
}

/**
 * A request whose digest headers are computed over `sign` (which may differ from what is sent:
 * another path, method, body, timestamp or secret), with `key` as x-digest-key.
 */
export interface SignedAttempt {
  method: string
  path: string
  body?: string
  sign: { method: string; path: string; body: string; timestamp: string; secret: string }
  key: string
  /** Rewrites the three digest headers before sending (a truncated signature, a missing header…). */
  tweak?: (headers: Record<string, string>) => void
}

export function sendSignedAttempt(baseUrl: string, a: SignedAttempt): Promise<RawResponse> {
  const headers: Record<string, string> = {
    'x-digest-key': a.key,
    'x-digest-timestamp': a.sign.timestamp,
    'x-digest-signature': signDigest(a.sign.secret, a.sign),
  }
  a.tweak?.(headers)
  return rawRequest(baseUrl, { method: a.method, path: a.path, body: a.body, headers })
}

/** A tweak replacing the correct signature with what `change` makes of it. */
export const rewriteSignature =
  (change: (correct: string) => string) =>
  (headers: Record<string, string>): void => {
    headers['x-digest-signature'] = change(headers['x-digest-signature']!)
  }

/** Reads a response whole, with its JSON when it is JSON. */
export async function readResponse(response: Response): Promise<RawResponse> {
  const text = await response.text()
  let json: unknown
  try {
    json = JSON.parse(text)
  } catch {
    json = undefined
  }
  return { status: response.status, headers: response.headers, text, json }
}
