// The typed HTTP client of the payments API. It signs every merchant request with the digest
// scheme of spec section 5, exactly as the sandbox verifies it. The CLI uses it; so can you:
//   const client = new PayboxClient({ baseUrl, apiKey, apiSecret })
//   const payment = await client.payments.create({ amount: { value: 1250, currency: 'USD' }, description: 'Order 1' })
import { ADMIN_TOKEN_HEADER, DIGEST_HEADERS, IDEMPOTENCY_KEY_HEADER, REQUEST_ID_HEADER } from '../api/headers.js'
import { signDigest } from '../signing.js'
import { PayboxApiError, PayboxConnectionError } from './errors.js'
import { serverSentEvents, type EventSourceMessage } from './server-sent-events.js'
import type { z } from 'zod'
import type { Contract } from '../api/contract/index.js'
import type { Entry, EntryWire, Security } from '../api/contract/entry.js'
import { wire } from '../api/wire.js'
import type { ClientQuery, ErrorBody } from './types.js'

export interface PayboxClientOptions {
  baseUrl: string
  apiKey?: string
  apiSecret?: string
  /** For the sandbox's own controls (/sandbox/…). */
  adminToken?: string
  /** Seconds since the epoch, for x-digest-timestamp; defaults to the real clock. */
  now?: () => number
  /** Sends the requests; global `fetch` unless given. Any function that answers like fetch for these requests will do. */
  fetch?: Transport
}

/** The one shape of request the client sends: a string URL, plain headers, a string body, no redirects followed. */
export interface TransportRequest {
  method?: string
  headers: Record<string, string>
  body?: string
  redirect: 'manual'
  signal?: AbortSignal
}

/** What the client reads of a response: all of it is fetch's Response. */
export interface TransportResponse {
  readonly ok: boolean
  readonly status: number
  readonly statusText: string
  readonly headers: { get(name: string): string | null }
  /** Read only for server-sent-event streams. */
  readonly body: ReadableStream<Uint8Array> | null
  text(): Promise<string>
}

/** What sends the client's requests: global `fetch` satisfies it. */
export type Transport = (url: string, init: TransportRequest) => Promise<TransportResponse>

export type AuthMode = 'merchant' | 'admin' | 'none'

export interface RequestOptions {
  query?: Record<string, string | number | undefined>
  body?: unknown
  headers?: Record<string, string>
  auth?: AuthMode
}

/** Options of a live stream: one connection, which ends when the server ends it. */
export interface StreamOptions {
  signal?: AbortSignal
  /** Called once the server has accepted the stream, before any message. */
  onOpen?: () => void
  /** Give the connection up as dead after this long without a byte (the sandbox sends a keep-alive every 15 s). Default 45 s. */
  idleTimeoutMs?: number
}

/** For money-moving POSTs: retried with the same key, the request moves money once and answers the same. */
export interface IdempotencyOptions {
  idempotencyKey?: string
}

export { ADMIN_TOKEN_HEADER }

/** How far ahead of now the client signs a request identical to ones it already signed (#signOnce). */
const SIGN_AHEAD_SECONDS = 10

/** The credentials each declared security takes (optional digest auth is sent signed; admin-or-digest: see #authOf). */
const AUTH_OF: Record<Exclude<Security, 'admin-or-digest'>, AuthMode> = {
  digest: 'merchant',
  'optional-digest': 'merchant',
  admin: 'admin',
  none: 'none',
}

/** The parameters an Express path takes, in order, as arguments: /payments/:id/refunds → [id]. The merchant's own id is looked up, never passed. */
type PathArguments<Path extends string> = Path extends `${string}:${infer Name}/${infer Rest}`
  ? Name extends 'merchantId'
    ? PathArguments<`/${Rest}`>
    : [string, ...PathArguments<`/${Rest}`>]
  : Path extends `${string}:${infer Name}`
    ? Name extends 'merchantId'
      ? []
      : [string]
    : []
/** Its body (optional when the schema allows none) or its query. */
type InputArguments<E extends Entry> = E extends { body: infer Body extends z.ZodType }
  ? undefined extends z.input<Body>
    ? [body?: z.input<Body>]
    : [body: z.input<Body>]
  : E extends { query: infer Query extends z.ZodType }
    ? [query?: ClientQuery<Query>]
    : []
/** Extra headers, and an Idempotency-Key where the entry honours one. */
type CallOptions<E extends Entry> = { headers?: Record<string, string> } & (E extends { idempotent: true } ? IdempotencyOptions : unknown)
/** What a stream takes besides its path: its query, and where to resume. */
type StreamCallOptions<E extends Entry> = StreamOptions & {
  /** Resume after this event id (sent as Last-Event-ID). */
  lastEventId?: string
  /** Called with the sequence of a stream's opening `ready` event. */
  onReady?: (sequence: number) => void
} & (E extends { query: infer Query extends z.ZodType } ? { query?: ClientQuery<Query> } : unknown)

/** The client method of an entry: path parameters, then its body or query, then options; its answer typed as z.infer of its schema. */
export type MethodOf<E extends Entry> = E extends { stream: { data: infer Data extends z.ZodType } }
  ? (...args: [...PathArguments<E['path']>, options?: StreamCallOptions<E>]) => AsyncGenerator<z.infer<Data>>
  : (
      ...args: [...PathArguments<E['path']>, ...InputArguments<E>, options?: CallOptions<E>]
    ) => Promise<E extends { response: infer Response extends z.ZodType } ? z.infer<Response> : void>

/** A method per entry of the contract, in its groups: client.payments.create, client.openapi. */
export type ClientOf<C> = {
  readonly [Group in keyof C]: C[Group] extends Entry
    ? MethodOf<C[Group]>
    : { readonly [Name in keyof C[Group]]: C[Group][Name] extends Entry ? MethodOf<C[Group][Name]> : never }
}

interface CallInput {
  params?: Record<string, string>
  query?: Record<string, string | number | undefined>
  body?: unknown
  headers?: Record<string, string>
}

const isWire = (node: object): node is EntryWire => 'operationId' in node
const pathParameterNames = (path: string): string[] => [...path.matchAll(/:(\w+)/g)].map((match) => match[1]!)

const DEFAULT_STREAM_IDLE_MS = 45_000

// The methods are derived from the contract at construction (as ts-rest's initClient does), so
// their types are declared by merging this interface into the class.
// eslint-disable-next-line @typescript-eslint/no-unsafe-declaration-merging, @typescript-eslint/no-empty-object-type
export interface PayboxClient extends ClientOf<Contract> {}

// eslint-disable-next-line @typescript-eslint/no-unsafe-declaration-merging
export class PayboxClient {
  readonly baseUrl: string
  readonly #options: PayboxClientOptions
  /** Signatures sent, by their timestamp's second, for as long as a request could repeat one (#signOnce). */
  readonly #signed = new Map<number, Set<string>>()
  /** The authenticated merchant's id, looked up once: the webhook and request log paths name it. */
  #merchantId: Promise<string> | undefined

  constructor(options: PayboxClientOptions) {
    this.baseUrl = options.baseUrl.replace(/\/+$/, '')
    this.#options = options
    for (const [group, node] of Object.entries(wire) as Array<[string, EntryWire | Record<string, EntryWire>]>) {
      const methods = isWire(node)
        ? this.#methodOf(node)
        : Object.fromEntries(Object.entries(node).map(([name, entry]) => [name, this.#methodOf(entry)]))
      Object.defineProperty(this, group, { value: methods, enumerable: true })
    }
  }

  /** An entry's method: its arguments are the path's parameters in order, then its body or query, then options. */
  #methodOf(entry: EntryWire): (...args: unknown[]) => unknown {
    const names = pathParameterNames(entry.path).filter((name) => name !== 'merchantId')
    return (...args) => {
      const params = Object.fromEntries(names.map((name, index) => [name, String(args[index])]))
      const rest = args.slice(names.length)
      if (entry.stream) return this.#streamData(entry, params, (rest[0] ?? {}) as StreamCallOptions<Entry> & { query?: CallInput['query'] })
      const body = entry.body ? rest.shift() : undefined
      const query = entry.query ? (rest.shift() as CallInput['query']) : undefined
      const { headers = {}, idempotencyKey } = (rest.shift() ?? {}) as { headers?: Record<string, string> } & IdempotencyOptions
      if (entry.idempotent && idempotencyKey) headers[IDEMPOTENCY_KEY_HEADER] = idempotencyKey
      return this.#call(entry, { params, query, body, headers })
    }
  }

  /** One entry's request: its path with the parameters filled in, its auth. */
  async #call(entry: EntryWire, { params, query, body, headers }: CallInput): Promise<unknown> {
    const path = await this.#pathOf(entry, params)
    return this.request(entry.method.toUpperCase(), path, { query, body, headers, auth: this.#authOf(entry.security) })
  }

  /** Sends one request and returns its parsed JSON; any non-2xx answer throws PayboxApiError. */
  async request<T>(method: string, path: string, options: RequestOptions = {}): Promise<T> {
    const target = this.#pathWithQuery(path, options.query)
    const body = options.body === undefined ? '' : JSON.stringify(options.body)
    const headers: Record<string, string> = { accept: 'application/json', ...options.headers }
    if (body !== '') headers['content-type'] = 'application/json'
    Object.assign(headers, this.#authHeaders(options.auth ?? 'merchant', method, target, body))

    const send = this.#options.fetch ?? fetch
    let response: TransportResponse
    try {
      response = await send(`${this.baseUrl}${target}`, { method, headers, body: body === '' ? undefined : body, redirect: 'manual' })
    } catch (error) {
      throw new PayboxConnectionError(this.baseUrl, error)
    }
    const text = await response.text()
    if (!response.ok) throw apiErrorOf(response, text)
    return parseJson(text) as T
  }

  /** The declared path with each parameter filled in; a merchant-scoped one (:merchantId) names the authenticated merchant. */
  async #pathOf(entry: EntryWire, params: Record<string, string> = {}): Promise<string> {
    const merchantId = entry.path.includes(':merchantId') ? await this.#ownMerchantId() : undefined
    return entry.path.replace(/:(\w+)/g, (_, name: string) => {
      const value = name === 'merchantId' ? merchantId : params[name]
      if (value === undefined) throw new Error(`No value for the path parameter ${name} of ${entry.path}`)
      return encodeURIComponent(value)
    })
  }

  async #ownMerchantId(): Promise<string> {
    this.#merchantId ??= this.merchant.get().then((merchant) => merchant.id)
    try {
      return await this.#merchantId
    } catch (error) {
      this.#merchantId = undefined
      throw error
    }
  }

  /** The `data` of each message of a declared stream's event, parsed; a `ready` event's sequence goes to onReady. */
  async *#streamData(
    entry: EntryWire,
    params: Record<string, string>,
    options: StreamCallOptions<Entry> & { query?: CallInput['query'] },
  ): AsyncGenerator<unknown> {
    const path = this.#pathWithQuery(await this.#pathOf(entry, params), options.query)
    for await (const message of this.#openStream(path, options, options.lastEventId, this.#authOf(entry.security))) {
      if (message.event === entry.stream) yield JSON.parse(message.data) as unknown
      // A resumable stream starts with `ready`: the latest sequence, from which to resume after a drop.
      else if (message.event === 'ready') options.onReady?.((JSON.parse(message.data) as { sequence: number }).sequence)
    }
  }

  /** A GET of a server-sent-event stream, signed (afresh for each call) or with the admin token. */
  async *#openStream(
    path: string,
    options: StreamOptions,
    lastEventId?: string,
    auth: AuthMode = 'merchant',
  ): AsyncGenerator<EventSourceMessage> {
    const headers: Record<string, string> = { accept: 'text/event-stream', ...this.#authHeaders(auth, 'GET', path, '') }
    if (lastEventId !== undefined) headers['last-event-id'] = lastEventId
    const send = this.#options.fetch ?? fetch
    let response: TransportResponse
    try {
      response = await send(`${this.baseUrl}${path}`, { headers, signal: options.signal, redirect: 'manual' })
    } catch (error) {
      if (options.signal?.aborted) throw error
      throw new PayboxConnectionError(this.baseUrl, error)
    }
    if (!response.ok) throw apiErrorOf(response, await response.text())
    options.onOpen?.()
    yield* serverSentEvents(response, options.idleTimeoutMs ?? DEFAULT_STREAM_IDLE_MS)
  }

  #pathWithQuery(path: string, query: RequestOptions['query']): string {
    const params = new URLSearchParams()
    for (const [name, value] of Object.entries(query ?? {})) if (value !== undefined) params.set(name, String(value))
    const search = params.toString()
    return search ? `${path}?${search}` : path
  }

  /** admin-or-digest: the admin token when the client holds one, else the merchant's keys. */
  #authOf(security: Security): AuthMode {
    if (security !== 'admin-or-digest') return AUTH_OF[security]
    return this.#options.adminToken ? 'admin' : 'merchant'
  }

  #authHeaders(auth: AuthMode, method: string, path: string, body: string): Record<string, string> {
    if (auth === 'none') return {}
    if (auth === 'admin') {
      if (!this.#options.adminToken) throw new Error('This request needs the sandbox admin token')
      return { [ADMIN_TOKEN_HEADER]: this.#options.adminToken }
    }
    const { apiKey, apiSecret } = this.#options
    if (!apiKey || !apiSecret) throw new Error('This request needs an API key and secret')
    const now = Math.floor(this.#options.now?.() ?? Date.now() / 1000)
    const { timestamp, signature } = this.#signOnce(apiSecret, now, { path, method, body })
    return { [DIGEST_HEADERS.key]: apiKey, [DIGEST_HEADERS.timestamp]: timestamp, [DIGEST_HEADERS.signature]: signature }
  }

  /**
   * A signature this client has not sent before: a request identical to one already signed in
   * the same second takes the next free second, so a shared sandbox, which accepts each
   * signature once, sees a new request rather than a replay (docs/security.md). At most
   * SIGN_AHEAD_SECONDS ahead, so a stream of identical requests cannot drift out of the window.
   */
  #signOnce(
    apiSecret: string,
    now: number,
    request: { path: string; method: string; body: string },
  ): { timestamp: string; signature: string } {
    // Only signatures of this second or later can repeat: earlier seconds are dropped whole.
    for (const second of this.#signed.keys()) if (second < now) this.#signed.delete(second)
    for (let at = now; at <= now + SIGN_AHEAD_SECONDS; at++) {
      const timestamp = String(at)
      const signature = signDigest(apiSecret, { ...request, timestamp })
      const sent = this.#signed.get(at) ?? this.#signed.set(at, new Set()).get(at)!
      if (sent.has(signature)) continue
      sent.add(signature)
      return { timestamp, signature }
    }
    // More identical requests this second than that: signed as they come (a shared sandbox refuses the copies).
    const timestamp = String(now)
    return { timestamp, signature: signDigest(apiSecret, { ...request, timestamp }) }
  }
}

function apiErrorOf(response: TransportResponse, text: string): PayboxApiError {
  const parsed = parseJson(text)
  const error = (parsed ?? {}) as Partial<ErrorBody>
  const retryAfter = Number(response.headers.get('retry-after') ?? Number.NaN)
  return new PayboxApiError(
    response.status,
    error.reason ?? response.statusText,
    error.message ?? error.reason ?? `HTTP ${response.status}`,
    parsed ?? text,
    Number.isInteger(retryAfter) && retryAfter >= 0 ? retryAfter : undefined,
    response.headers.get(REQUEST_ID_HEADER) ?? undefined,
  )
}

function parseJson(text: string): unknown {
  if (text === '') return undefined
  try {
    return JSON.parse(text) as unknown
  } catch {
    return undefined
  }
}
