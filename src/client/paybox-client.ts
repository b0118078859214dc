// The typed HTTP client of the payments API. It signs every merchant request with the digest
// scheme of spec section 5, exactly as the sandbox verifies it. The CLI uses it; so can you:
//   const client = new PayboxClient({ baseUrl, apiKey, apiSecret })
//   const payment = await client.payments.create({ amount: { value: 1250, currency: 'USD' }, description: 'Order 1' })
import { DIGEST_HEADERS, signDigest } from '../signing.js'
import { PayboxApiError, PayboxConnectionError } from './errors.js'
import { serverSentEvents, type EventSourceMessage } from './server-sent-events.js'
import type {
  AccountBalances,
  CreateMerchantRequest,
  CreatePaymentRequest,
  CreateWalletRequest,
  CreateInvoiceRequest,
  CreateRefundRequest,
  CrossChainDepositRequest,
  CrossChainQuote,
  CrossChainQuoteRequest,
  Currency,
  ErrorBody,
  EscrowOrder,
  FeeTier,
  Invoice,
  InvoiceSettings,
  LedgerAccount,
  LedgerAccountsQuery,
  LedgerTransaction,
  LedgerTransactionsQuery,
  OriginChain,
  ListInvoicesQuery,
  ListPaymentsQuery,
  ListRefundsQuery,
  ListWebhookDeliveriesQuery,
  Merchant,
  Page,
  Payment,
  PaymentEvent,
  Refund,
  RequestLogEntry,
  RequestLogListQuery,
  RequestLogQuery,
  SandboxClock,
  SandboxFailRequest,
  SandboxHealth,
  SandboxMerchant,
  SandboxPayRequest,
  SandboxSnapshot,
  SandboxStateSwap,
  SandboxWallet,
  UpdateInvoiceSettingsRequest,
  WebhookDelivery,
  WebhooksPausedState,
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
  options.idempotencyKey ? { 'Idempotency-Key': options.idempotencyKey } : {}

export const ADMIN_TOKEN_HEADER = 'x-sandbox-admin-token'
const DEFAULT_STREAM_IDLE_MS = 45_000

export class PayboxClient {
  readonly baseUrl: string
  readonly #options: PayboxClientOptions
  /** The authenticated merchant's id, looked up once: the webhook paths name it. */
  #merchantId: Promise<string> | undefined

  constructor(options: PayboxClientOptions) {
    this.baseUrl = options.baseUrl.replace(/\/+$/, '')
    this.#options = options
  }

  readonly payments = {
    create: (body: CreatePaymentRequest, options: IdempotencyOptions = {}) =>
      this.request<Payment>('POST', '/payments', { body, headers: idempotencyHeaders(options) }),
    get: (id: string) => this.request<Payment>('GET', `/payments/${encodeURIComponent(id)}`),
    list: (query: ListPaymentsQuery = {}) => this.request<Page<Payment>>('GET', '/payments', { query: { ...query } }),
    /** Takes what an underpaid payment received as payment in full: it becomes paid. */
    acceptUnderpayment: (id: string, options: IdempotencyOptions = {}) =>
      this.request<Payment>('POST', `/payments/${encodeURIComponent(id)}/accept-underpayment`, { headers: idempotencyHeaders(options) }),
    /** Pays the customer back over the ledger (default: everything still refundable). */
    refund: (id: string, body: CreateRefundRequest = {}, options: IdempotencyOptions = {}) =>
      this.request<Refund>('POST', `/payments/${encodeURIComponent(id)}/refunds`, { body, headers: idempotencyHeaders(options) }),
  }

  readonly refunds = {
    list: (query: ListRefundsQuery = {}) => this.request<Page<Refund>>('GET', '/refunds', { query: { ...query } }),
    get: (id: string) => this.request<Refund>('GET', `/refunds/${encodeURIComponent(id)}`),
  }

  readonly balances = {
    /** Every asset of the merchant's settlement account. */
    list: () => this.request<AccountBalances>('GET', '/accounts/balances'),
    /** One asset: `USDC`, `USDC:<issuer>`, `native` or `XLM`. */
    get: (assetId: string) => this.request<{ balance: string }>('GET', `/accounts/balances/${encodeURIComponent(assetId)}`),
  }

  readonly merchant = {
    /** Who the API key belongs to: id, name, settlement mode and account, whether webhooks are paused. */
    get: () => this.request<Merchant>('GET', '/merchant'),
    feeTier: () => this.request<FeeTier>('GET', '/merchant/fee-tier'),
  }

  /** The merchant's webhook delivery log, and switching deliveries off and on. */
  readonly webhooks = {
    /** Deliveries, newest first, without their payload and response body. */
    list: async (query: ListWebhookDeliveriesQuery = {}) =>
      this.request<Page<WebhookDelivery>>('GET', `${await this.#merchantPath()}/webhook-logs`, { query: { ...query } }),
    /** One delivery with the exact payload sent and the receiver's answer. */
    get: async (id: string) => this.request<WebhookDelivery>('GET', `${await this.#merchantPath()}/webhook-logs/${encodeURIComponent(id)}`),
    /** Sends a delivery's payload again, byte for byte, signed with the current secret; returns the new entry. */
    resend: async (id: string) =>
      this.request<WebhookDelivery>('POST', `${await this.#merchantPath()}/webhook-logs/${encodeURIComponent(id)}/resend`),
    /** While paused, events are still logged, as skipped, but nothing is sent. */
    pause: async () => this.request<WebhooksPausedState>('POST', `${await this.#merchantPath()}/webhooks/pause`),
    resume: async () => this.request<WebhooksPausedState>('POST', `${await this.#merchantPath()}/webhooks/resume`),
    /** Each delivery as it finishes (success, failed or skipped), from the moment of connecting. */
    stream: (options: StreamOptions = {}): AsyncGenerator<WebhookDelivery> =>
      this.#streamData<WebhookDelivery>('/webhook-logs/stream', 'delivery', options),
  }

  /**
   * The sandbox's request log: the merchant's own API requests or, with `all` (which takes the
   * admin token), every request, public and admin ones included. No bodies or credentials.
   */
  readonly requestLogs = {
    /** Recent requests, newest first. */
    list: async (query: RequestLogListQuery = {}, options: { all?: boolean } = {}) =>
      this.request<{ items: RequestLogEntry[] }>('GET', await this.#requestLogPath(options.all), {
        query: { ...query },
        auth: options.all ? 'admin' : 'merchant',
      }),
    /** Each request as it finishes, from the moment of connecting. */
    stream: (options: StreamOptions & { query?: RequestLogQuery; all?: boolean } = {}): AsyncGenerator<RequestLogEntry> =>
      this.#requestLogStream(options),
  }

  /** The merchant's payment events, whether or not their payments have a webhookUrl. */
  readonly events = {
    /**
     * Every payment event from the moment of connecting or, given `lastEventId` (the sequence of
     * the last event seen), every event after it first: a dropped stream resumes without a gap.
     */
    stream: (options: StreamOptions & { lastEventId?: string; onReady?: (sequence: number) => void } = {}): AsyncGenerator<PaymentEvent> =>
      this.#streamData<PaymentEvent>('/events/stream', 'payment_event', options, options.lastEventId, (message) => {
        // A fresh stream starts with `ready`: the latest sequence, from which to resume after a drop.
        if (message.event === 'ready') options.onReady?.((JSON.parse(message.data) as { sequence: number }).sequence)
      }),
  }

  /** Invoices, each with a linked payment the customer pays it with. */
  /** Customers paying from another chain through the sandbox's simulated bridge (spec 4.5). */
  readonly crossChain = {
    chains: () => this.request<{ bridgeFeeBps: number; items: OriginChain[] }>('GET', '/cross-chain/chains'),
    quote: (paymentId: string, body: CrossChainQuoteRequest) =>
      this.request<CrossChainQuote>('POST', `/payments/${encodeURIComponent(paymentId)}/cross-chain/quote`, { body }),
    /** The quote's bridge order: status, amounts in, out and refunded, the transactions on both chains. */
    status: (quoteId: string) => this.request<CrossChainQuote>('GET', `/cross-chain/quotes/${encodeURIComponent(quoteId)}`),
    /**
     * A deposit arrives at the quote's address (default: what the order still lacks). The quoted
     * amount in before the deadline is swapped and pays the payment over the ledger; a short one
     * waits for the rest; a late one, or with `fail`, is refunded.
     */
    deposit: (quoteId: string, body: CrossChainDepositRequest = {}, options: IdempotencyOptions = {}) =>
      this.request<{ quote: CrossChainQuote; payment: Payment }>(
        'POST',
        `/sandbox/cross-chain/quotes/${encodeURIComponent(quoteId)}/deposit`,
        {
          body,
          headers: idempotencyHeaders(options),
        },
      ),
  }

  readonly invoices = {
    create: (body: CreateInvoiceRequest) => this.request<Invoice>('POST', '/invoices', { body }),
    /** Newest first. */
    list: (query: ListInvoicesQuery = {}) => this.request<Page<Invoice>>('GET', '/invoices', { query: { ...query } }),
    get: (id: string) => this.request<Invoice>('GET', `/invoices/${encodeURIComponent(id)}`),
    /** Voids an unpaid invoice and expires its payment link; a paid one needs a refund instead (409). */
    cancel: (id: string) => this.request<Invoice>('POST', `/invoices/${encodeURIComponent(id)}/cancel`),
    /** The numbering prefix, the next number and a preview of the next invoice number. */
    settings: () => this.request<InvoiceSettings>('GET', '/invoices/settings'),
    updateSettings: (body: UpdateInvoiceSettingsRequest) => this.request<InvoiceSettings>('POST', '/invoices/settings', { body }),
  }

  readonly currencies = {
    list: () => this.request<{ items: Currency[] }>('GET', '/currencies'),
  }

  /** The OpenAPI 3.1 document of the whole API, as the server describes itself (no credentials needed). */
  openapi(): Promise<Record<string, unknown>> {
    return this.request<Record<string, unknown>>('GET', '/openapi.json', { auth: 'none' })
  }

  readonly sandbox = {
    /** 200 when the database, the ledger and the webhook dispatcher all work; a 503 throws PayboxApiError (its body has the checks). */
    health: () => this.request<SandboxHealth>('GET', '/health', { auth: 'none' }),
    merchants: () => this.request<{ items: SandboxMerchant[] }>('GET', '/sandbox/merchants', { auth: 'admin' }),
    /** A new merchant with fresh keys and a funded settlement account (admin token). */
    createMerchant: (body: CreateMerchantRequest) => this.request<SandboxMerchant>('POST', '/sandbox/merchants', { auth: 'admin', body }),
    /** A new customer wallet funded with XLM and USDC, secret included, for real Stellar tools (admin token). */
    createWallet: (body: CreateWalletRequest = {}) => this.request<SandboxWallet>('POST', '/sandbox/wallets', { auth: 'admin', body }),
    clock: () => this.request<SandboxClock>('GET', '/sandbox/clock', { auth: 'admin' }),
    /** A sandbox customer wallet pays the payment over the ledger (default: what remains). */
    pay: (paymentId: string, body: SandboxPayRequest = {}, options: IdempotencyOptions = {}) =>
      this.request<Payment>('POST', `/sandbox/payments/${encodeURIComponent(paymentId)}/pay`, {
        body,
        headers: idempotencyHeaders(options),
      }),
    /** Simulates a processing failure: the payment becomes failed. */
    fail: (paymentId: string, body: SandboxFailRequest = {}) =>
      this.request<Payment>('POST', `/sandbox/payments/${encodeURIComponent(paymentId)}/fail`, { body }),
    /** Expires the payment now, whatever its expiresAt. */
    expire: (paymentId: string) => this.request<Payment>('POST', `/sandbox/payments/${encodeURIComponent(paymentId)}/expire`),
    /** A new API secret for the merchant (admin token); the old one stops working at once. */
    rotateSecret: (merchantId: string) =>
      this.request<SandboxMerchant>('POST', `/sandbox/merchants/${encodeURIComponent(merchantId)}/rotate-secret`, { auth: 'admin' }),
    advanceClock: (seconds: number) =>
      this.request<SandboxClock & { processed: Record<string, number> }>('POST', '/sandbox/clock/advance', {
        auth: 'admin',
        body: { seconds },
      }),
    /** Business time stands still (at `at`, ISO 8601, default now) until unfrozen; advancing still moves it. */
    freezeClock: (at?: string) =>
      this.request<SandboxClock>('POST', '/sandbox/clock/freeze', { auth: 'admin', body: at === undefined ? {} : { at } }),
    unfreezeClock: () => this.request<SandboxClock>('POST', '/sandbox/clock/unfreeze', { auth: 'admin' }),
    /** Back to a fresh genesis (same seed, fixed keys and admin token). */
    reset: () => this.request<SandboxStateSwap>('POST', '/sandbox/reset', { auth: 'admin' }),
  }

  /** Consistent copies of the sandbox's whole state (admin token). */
  readonly snapshots = {
    list: () => this.request<{ items: SandboxSnapshot[] }>('GET', '/sandbox/snapshots', { auth: 'admin' }),
    save: (name: string, options: { replace?: boolean } = {}) =>
      this.request<SandboxSnapshot>('POST', '/sandbox/snapshots', {
        auth: 'admin',
        body: { name, ...(options.replace ? { replace: true } : {}) },
      }),
    /** Replaces the whole state with the snapshot's; requests wait meanwhile. */
    restore: (name: string) =>
      this.request<SandboxStateSwap>('POST', `/sandbox/snapshots/${encodeURIComponent(name)}/restore`, { auth: 'admin' }),
    remove: (name: string) => this.request<void>('DELETE', `/sandbox/snapshots/${encodeURIComponent(name)}`, { auth: 'admin' }),
  }

  /**
   * An escrow merchant's escrow orders (sandbox controls, merchant auth). An order is funded by
   * paying its payment (sandbox.pay); a direct merchant's payment has none (409).
   */
  readonly escrow = {
    /** Pays the payee what the order holds less the platform fee, and the platform the fee, in one ledger transaction. */
    release: (paymentId: string, options: IdempotencyOptions = {}) =>
      this.request<Payment>('POST', `/sandbox/payments/${encodeURIComponent(paymentId)}/escrow/release`, {
        headers: idempotencyHeaders(options),
      }),
    /** Simulates a failed funding of an unfunded order: the order and its payment fail. */
    fail: (paymentId: string, body: SandboxFailRequest = {}) =>
      this.request<Payment>('POST', `/sandbox/payments/${encodeURIComponent(paymentId)}/escrow/fail`, { body }),
    /** The order with its custody balance and its ledger transactions. */
    status: (paymentId: string) => this.request<EscrowOrder>('GET', `/sandbox/payments/${encodeURIComponent(paymentId)}/escrow`),
  }

  /** The simulated Stellar ledger, as the sandbox operator sees it (admin token). */
  readonly ledger = {
    accounts: (query: LedgerAccountsQuery = {}) =>
      this.request<{ items: LedgerAccount[] }>('GET', '/sandbox/ledger/accounts', { auth: 'admin', query: { ...query } }),
    transactions: (query: LedgerTransactionsQuery = {}) =>
      this.request<{ items: LedgerTransaction[] }>('GET', '/sandbox/ledger/transactions', { auth: 'admin', query: { ...query } }),
    transaction: (hash: string) =>
      this.request<LedgerTransaction>('GET', `/sandbox/ledger/transactions/${encodeURIComponent(hash)}`, { auth: 'admin' }),
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

  async #merchantPath(): Promise<string> {
    this.#merchantId ??= this.merchant.get().then((merchant) => merchant.id)
    try {
      return `/merchants/${encodeURIComponent(await this.#merchantId)}`
    } catch (error) {
      this.#merchantId = undefined
      throw error
    }
  }

  /** The `data` of each message named `eventName` on one of the merchant's streams, parsed. */
  async *#streamData<T>(
    streamPath: string,
    eventName: string,
    options: StreamOptions,
    lastEventId?: string,
    onOther?: (message: EventSourceMessage) => void,
  ): AsyncGenerator<T> {
    for await (const message of this.#openStream(`${await this.#merchantPath()}${streamPath}`, options, lastEventId)) {
      if (message.event === eventName) yield JSON.parse(message.data) as T
      else onOther?.(message)
    }
  }

  async #requestLogPath(all = false): Promise<string> {
    return all ? '/sandbox/request-logs' : `${await this.#merchantPath()}/request-logs`
  }

  async *#requestLogStream(options: StreamOptions & { query?: RequestLogQuery; all?: boolean }): AsyncGenerator<RequestLogEntry> {
    const path = this.#pathWithQuery(`${await this.#requestLogPath(options.all)}/stream`, { ...options.query })
    for await (const message of this.#openStream(path, options, undefined, options.all ? 'admin' : 'merchant')) {
      if (message.event === 'request') yield JSON.parse(message.data) as RequestLogEntry
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
    response.headers.get('request-id') ?? undefined,
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
