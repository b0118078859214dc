// The typed HTTP client of the payments API. It signs every merchant request with the digest
// scheme of spec section 5, exactly as the sandbox verifies it. The CLI uses it; so can you:
//   const client = new PayboxClient({ baseUrl, apiKey, apiSecret })
//   const payment = await client.payments.create({ amount: { value: 1250, currency: 'USD' }, description: 'Order 1' })
import { signDigest } from '../signing.js'
import { PayboxApiError, PayboxConnectionError } from './errors.js'
import { serverSentEvents, type EventSourceMessage } from './server-sent-events.js'
import type { z } from 'zod'
import { ADMIN_TOKEN_HEADER, DIGEST_HEADERS, IDEMPOTENCY_KEY_HEADER, REQUEST_ID_HEADER } from '../api/headers.js'
import { endpoints, type Endpoint, type QueryName, type RequestBodyName, type ResponseName, type Security } from '../api/endpoints.js'
import type { QUERIES, REQUEST_BODIES } from '../api/requests.js'
import type { RESPONSE_SCHEMAS } from '../api/resources.js'
import type {
  ClientQuery,
  CreateInvoiceRequest,
  CreateMerchantRequest,
  CreateTenantRequest,
  CreatePaymentRequest,
  CreateRefundRequest,
  CreateWalletRequest,
  CrossChainDepositRequest,
  CrossChainQuoteRequest,
  ErrorBody,
  LedgerAccountsQuery,
  LedgerTransactionsQuery,
  ListInvoicesQuery,
  ListPaymentsQuery,
  ListRefundsQuery,
  ListWebhookDeliveriesQuery,
  RequestLogListQuery,
  RequestLogQuery,
  SandboxFailRequest,
  SandboxPayRequest,
  UpdateInvoiceSettingsRequest,
} from './types.js'

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

const idempotencyHeaders = (options: IdempotencyOptions): Record<string, string> =>
  options.idempotencyKey ? { [IDEMPOTENCY_KEY_HEADER]: options.idempotencyKey } : {}

/** The credentials each declared security takes (optional digest auth is sent signed; admin-or-digest: the admin token when the client has it). */
const AUTH_OF: Record<Exclude<Security, 'admin-or-digest'>, AuthMode> = {
  digest: 'merchant',
  'optional-digest': 'merchant',
  admin: 'admin',
  none: 'none',
}

/** The parameter names of an Express path: /payments/:id/refunds → id. */
type PathParameters<Path extends string> = Path extends `${string}:${infer Name}/${infer Rest}`
  ? Name | PathParameters<`/${Rest}`>
  : Path extends `${string}:${infer Name}`
    ? Name
    : never
/** The merchant's own id is looked up, never passed. */
type GivenParameters<E extends Endpoint> = Exclude<PathParameters<E['path']>, 'merchantId'>

/** What calling an endpoint takes: the path's parameters, its query, its body (required when the schema requires one) and extra headers. */
type CallOptions<E extends Endpoint> = ([GivenParameters<E>] extends [never] ? unknown : { params: Record<GivenParameters<E>, string> }) &
  (E extends { query: infer Query extends QueryName } ? { query?: ClientQuery<(typeof QUERIES)[Query]> } : unknown) &
  (E extends { body: infer Body extends RequestBodyName }
    ? undefined extends z.input<(typeof REQUEST_BODIES)[Body]>
      ? { body?: z.input<(typeof REQUEST_BODIES)[Body]> }
      : { body: z.input<(typeof REQUEST_BODIES)[Body]> }
    : unknown) & { headers?: Record<string, string> }
type OptionalWhenEmpty<Options> = object extends Options ? [options?: Options] : [options: Options]
interface CallInput {
  params?: Record<string, string>
  query?: Record<string, string | number | undefined>
  body?: unknown
  headers?: Record<string, string>
}
/** The declared answer, as z.infer of its schema; nothing for a 204. */
type Answer<E extends Endpoint> = E extends { response: infer Name extends ResponseName } ? z.infer<(typeof RESPONSE_SCHEMAS)[Name]> : void
/** Each event's data on a declared stream. */
type Streamed<E extends Endpoint> = E extends { stream: infer Name extends ResponseName } ? z.infer<(typeof RESPONSE_SCHEMAS)[Name]> : never
const DEFAULT_STREAM_IDLE_MS = 45_000

export class PayboxClient {
  readonly baseUrl: string
  readonly #options: PayboxClientOptions
  /** The authenticated merchant's id, looked up once: the webhook and request log paths name it. */
  #merchantId: Promise<string> | undefined

  constructor(options: PayboxClientOptions) {
    this.baseUrl = options.baseUrl.replace(/\/+$/, '')
    this.#options = options
  }

  readonly payments = {
    create: (body: CreatePaymentRequest, options: IdempotencyOptions = {}) =>
      this.#call(endpoints.createPayment, { body, headers: idempotencyHeaders(options) }),
    get: (id: string) => this.#call(endpoints.getPayment, { params: { id } }),
    list: (query: ListPaymentsQuery = {}) => this.#call(endpoints.listPayments, { query }),
    /** Takes what an underpaid payment received as payment in full: it becomes paid. */
    acceptUnderpayment: (id: string, options: IdempotencyOptions = {}) =>
      this.#call(endpoints.acceptUnderpayment, { params: { id }, headers: idempotencyHeaders(options) }),
    /** Pays the customer back over the ledger (default: everything still refundable). */
    refund: (id: string, body: CreateRefundRequest = {}, options: IdempotencyOptions = {}) =>
      this.#call(endpoints.refundPayment, { params: { id }, body, headers: idempotencyHeaders(options) }),
  }

  readonly refunds = {
    list: (query: ListRefundsQuery = {}) => this.#call(endpoints.listRefunds, { query }),
    get: (id: string) => this.#call(endpoints.getRefund, { params: { id } }),
  }

  readonly balances = {
    /** Every asset of the merchant's settlement account. */
    list: () => this.#call(endpoints.listBalances),
    /** One asset: `USDC`, `USDC:<issuer>`, `native` or `XLM`. */
    get: (assetId: string) => this.#call(endpoints.getBalance, { params: { assetId } }),
  }

  readonly merchant = {
    /** Who the API key belongs to: id, name, settlement mode and account, whether webhooks are paused. */
    get: () => this.#call(endpoints.getMerchant),
    feeTier: () => this.#call(endpoints.getFeeTier),
  }

  /** The merchant's webhook delivery log, and switching deliveries off and on. */
  readonly webhooks = {
    /** Deliveries, newest first, without their payload and response body. */
    list: (query: ListWebhookDeliveriesQuery = {}) => this.#call(endpoints.listWebhookDeliveries, { query }),
    /** One delivery with the exact payload sent and the receiver's answer. */
    get: (id: string) => this.#call(endpoints.getWebhookDelivery, { params: { id } }),
    /** Sends a delivery's payload again, byte for byte, signed with the current secret; returns the new entry. */
    resend: (id: string) => this.#call(endpoints.resendWebhookDelivery, { params: { id } }),
    /** While paused, events are still logged, as skipped, but nothing is sent. */
    pause: () => this.#call(endpoints.pauseWebhooks),
    resume: () => this.#call(endpoints.resumeWebhooks),
    /** Each delivery as it finishes (success, failed or skipped), from the moment of connecting. */
    stream: (options: StreamOptions = {}) => this.#streamData(endpoints.streamWebhookDeliveries, 'delivery', options),
  }

  /**
   * The sandbox's request log: the merchant's own API requests or, with `all` (which takes the
   * admin token), every request, public and admin ones included. No bodies or credentials.
   */
  readonly requestLogs = {
    /** Recent requests, newest first. */
    list: (query: RequestLogListQuery = {}, options: { all?: boolean } = {}) =>
      options.all ? this.#call(endpoints.listAllRequests, { query }) : this.#call(endpoints.listRequests, { query }),
    /** Each request as it finishes, from the moment of connecting. */
    stream: (options: StreamOptions & { query?: RequestLogQuery; all?: boolean } = {}) =>
      this.#streamData(options.all ? endpoints.streamAllRequests : endpoints.streamRequests, 'request', {
        ...options,
        query: options.query,
      }),
  }

  /** The merchant's payment events, whether or not their payments have a webhookUrl. */
  readonly events = {
    /**
     * Every payment event from the moment of connecting or, given `lastEventId` (the sequence of
     * the last event seen), every event after it first: a dropped stream resumes without a gap.
     */
    stream: (options: StreamOptions & { lastEventId?: string; onReady?: (sequence: number) => void } = {}) =>
      this.#streamData(endpoints.streamPaymentEvents, 'payment_event', options, (message) => {
        // A fresh stream starts with `ready`: the latest sequence, from which to resume after a drop.
        if (message.event === 'ready') options.onReady?.((JSON.parse(message.data) as { sequence: number }).sequence)
      }),
  }

  /** Customers paying from another chain through the sandbox's simulated bridge (spec 4.5). */
  readonly crossChain = {
    chains: () => this.#call(endpoints.listOriginChains),
    quote: (paymentId: string, body: CrossChainQuoteRequest) =>
      this.#call(endpoints.createCrossChainQuote, { params: { id: paymentId }, body }),
    /** The quote's bridge order: status, amounts in, out and refunded, the transactions on both chains. */
    status: (quoteId: string) => this.#call(endpoints.getCrossChainQuote, { params: { quoteId } }),
    /**
     * A deposit arrives at the quote's address (default: what the order still lacks). The quoted
     * amount in before the deadline is swapped and pays the payment over the ledger; a short one
     * waits for the rest; a late one, or with `fail`, is refunded.
     */
    deposit: (quoteId: string, body: CrossChainDepositRequest = {}, options: IdempotencyOptions = {}) =>
      this.#call(endpoints.simulateDeposit, { params: { quoteId }, body, headers: idempotencyHeaders(options) }),
  }

  /** Invoices, each with a linked payment the customer pays it with. */
  readonly invoices = {
    create: (body: CreateInvoiceRequest) => this.#call(endpoints.createInvoice, { body }),
    /** Newest first. */
    list: (query: ListInvoicesQuery = {}) => this.#call(endpoints.listInvoices, { query }),
    get: (id: string) => this.#call(endpoints.getInvoice, { params: { id } }),
    /** Voids an unpaid invoice and expires its payment link; a paid one needs a refund instead (409). */
    cancel: (id: string) => this.#call(endpoints.cancelInvoice, { params: { id } }),
    /** The numbering prefix, the next number and a preview of the next invoice number. */
    settings: () => this.#call(endpoints.getInvoiceSettings),
    updateSettings: (body: UpdateInvoiceSettingsRequest) => this.#call(endpoints.updateInvoiceSettings, { body }),
  }

  readonly currencies = {
    list: () => this.#call(endpoints.listCurrencies),
  }

  /** The OpenAPI 3.1 document of the whole API, as the server describes itself (no credentials needed). */
  openapi() {
    return this.#call(endpoints.getOpenApiDocument)
  }

  readonly sandbox = {
    /** 200 when the database, the ledger and the webhook dispatcher all work; a 503 throws PayboxApiError (its body has the checks). */
    health: () => this.#call(endpoints.getHealth),
    merchants: () => this.#call(endpoints.listSandboxMerchants),
    /** A new merchant with fresh keys and a funded settlement account (admin token). */
    createMerchant: (body: CreateMerchantRequest) => this.#call(endpoints.createSandboxMerchant, { body }),
    /** A new customer wallet funded with XLM and USDC, secret included, for real Stellar tools (admin token). */
    createWallet: (body: CreateWalletRequest = {}) => this.#call(endpoints.createWallet, { body }),
    clock: () => this.#call(endpoints.getSandboxClock),
    /** A sandbox customer wallet pays the payment over the ledger (default: what remains). */
    pay: (paymentId: string, body: SandboxPayRequest = {}, options: IdempotencyOptions = {}) =>
      this.#call(endpoints.simulatePay, { params: { id: paymentId }, body, headers: idempotencyHeaders(options) }),
    /** Simulates a processing failure: the payment becomes failed. */
    fail: (paymentId: string, body: SandboxFailRequest = {}) => this.#call(endpoints.simulateFailure, { params: { id: paymentId }, body }),
    /** Expires the payment now, whatever its expiresAt. */
    expire: (paymentId: string) => this.#call(endpoints.simulateExpiry, { params: { id: paymentId } }),
    /** Whether the payment's webhooks have all been sent: no event coming, no delivery pending. */
    webhooksState: (paymentId: string) => this.#call(endpoints.getPaymentWebhooksState, { params: { id: paymentId } }),
    /** A new API secret for the merchant (admin token); the old one stops working at once. */
    rotateSecret: (merchantId: string) => this.#call(endpoints.rotateMerchantSecret, { params: { id: merchantId } }),
    advanceClock: (seconds: number) => this.#call(endpoints.advanceSandboxClock, { body: { seconds } }),
    /** Business time stands still (at `at`, ISO 8601, default now) until unfrozen; advancing still moves it. */
    freezeClock: (at?: string) => this.#call(endpoints.freezeSandboxClock, { body: at === undefined ? {} : { at } }),
    unfreezeClock: () => this.#call(endpoints.unfreezeSandboxClock),
    /** A tenant: a merchant for one job with its own business clock, its keys included (admin token). */
    createTenant: (body: CreateTenantRequest = {}) => this.#call(endpoints.createTenant, { body }),
    /** Active tenants, without keys (admin token). */
    listTenants: () => this.#call(endpoints.listTenants),
    /** Archives a tenant: its keys stop working and its rows leave lists and sweeps; the ledger keeps its transactions. */
    archiveTenant: (id: string) => this.#call(endpoints.archiveTenant, { params: { id } }),
    /** A merchant's business time (the admin token, or the merchant's own key where the sandbox allows it). */
    getMerchantClock: (merchantId: string) => this.#call(endpoints.getMerchantClock, { params: { id: merchantId } }),
    /** Moves one merchant's business time forward and processes what fell due for it; other merchants' time stays. */
    advanceMerchantClock: (merchantId: string, seconds: number) =>
      this.#call(endpoints.advanceMerchantClock, { params: { id: merchantId }, body: { seconds } }),
    /** One merchant's business time stands still (at `at`, ISO 8601, default now) until unfrozen. */
    freezeMerchantClock: (merchantId: string, at?: string) =>
      this.#call(endpoints.freezeMerchantClock, { params: { id: merchantId }, body: at === undefined ? {} : { at } }),
    unfreezeMerchantClock: (merchantId: string) => this.#call(endpoints.unfreezeMerchantClock, { params: { id: merchantId } }),
    /** Back to a fresh genesis (same seed, fixed keys and admin token). */
    reset: () => this.#call(endpoints.resetSandbox),
    /** A one-time link that opens the dashboard signed in as the admin (admin token). */
    dashboardLink: () => this.#call(endpoints.createDashboardSignInLink),
  }

  /** Consistent copies of the sandbox's whole state (admin token). */
  readonly snapshots = {
    list: () => this.#call(endpoints.listSnapshots),
    save: (name: string, options: { replace?: boolean } = {}) =>
      this.#call(endpoints.saveSnapshot, { body: { name, ...(options.replace ? { replace: true } : {}) } }),
    /** Replaces the whole state with the snapshot's; requests wait meanwhile. */
    restore: (name: string) => this.#call(endpoints.restoreSnapshot, { params: { name } }),
    remove: (name: string) => this.#call(endpoints.deleteSnapshot, { params: { name } }),
  }

  /**
   * An escrow merchant's escrow orders (sandbox controls, merchant auth). An order is funded by
   * paying its payment (sandbox.pay); a direct merchant's payment has none (409).
   */
  readonly escrow = {
    /** Pays the payee what the order holds less the platform fee, and the platform the fee, in one ledger transaction. */
    release: (paymentId: string, options: IdempotencyOptions = {}) =>
      this.#call(endpoints.releaseEscrow, { params: { id: paymentId }, headers: idempotencyHeaders(options) }),
    /** Simulates a failed funding of an unfunded order: the order and its payment fail. */
    fail: (paymentId: string, body: SandboxFailRequest = {}) => this.#call(endpoints.failEscrow, { params: { id: paymentId }, body }),
    /** The order with its custody balance and its ledger transactions. */
    status: (paymentId: string) => this.#call(endpoints.getEscrowOrder, { params: { id: paymentId } }),
  }

  /** The simulated Stellar ledger, as the sandbox operator sees it (admin token). */
  readonly ledger = {
    accounts: (query: LedgerAccountsQuery = {}) => this.#call(endpoints.listLedgerAccounts, { query }),
    transactions: (query: LedgerTransactionsQuery = {}) => this.#call(endpoints.listLedgerTransactions, { query }),
    transaction: (hash: string) => this.#call(endpoints.getLedgerTransaction, { params: { hash } }),
  }

  /** One declared endpoint (src/api/endpoints.ts): its path with the parameters filled in, its auth, its answer's type. */
  async #call<E extends Endpoint>(endpoint: E, ...[options]: OptionalWhenEmpty<CallOptions<E>>): Promise<Answer<E>> {
    const { params, query, body, headers } = (options ?? {}) as CallInput
    const path = await this.#pathOf(endpoint, params)
    return this.request<Answer<E>>(endpoint.method.toUpperCase(), path, { query, body, headers, auth: this.#authOf(endpoint.security) })
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
  async #pathOf(endpoint: Endpoint, params: Record<string, string> = {}): Promise<string> {
    const merchantId = endpoint.path.includes(':merchantId') ? await this.#ownMerchantId() : undefined
    return endpoint.path.replace(/:(\w+)/g, (_, name: string) => {
      const value = name === 'merchantId' ? merchantId : params[name]
      if (value === undefined) throw new Error(`No value for the path parameter ${name} of ${endpoint.path}`)
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

  /** The `data` of each message named `eventName` on a declared stream, parsed. */
  async *#streamData<E extends Endpoint & { stream: ResponseName }>(
    endpoint: E,
    eventName: string,
    options: StreamOptions & { lastEventId?: string; query?: CallInput['query'] },
    onOther?: (message: EventSourceMessage) => void,
  ): AsyncGenerator<Streamed<E>> {
    const path = this.#pathWithQuery(await this.#pathOf(endpoint), options.query)
    for await (const message of this.#openStream(path, options, options.lastEventId, this.#authOf(endpoint.security))) {
      if (message.event === eventName) yield JSON.parse(message.data) as Streamed<E>
      else onOther?.(message)
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
    const timestamp = String(Math.floor(this.#options.now?.() ?? Date.now() / 1000))
    return {
      [DIGEST_HEADERS.key]: apiKey,
      [DIGEST_HEADERS.timestamp]: timestamp,
      [DIGEST_HEADERS.signature]: signDigest(apiSecret, { path, timestamp, method, body }),
    }
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
