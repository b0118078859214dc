// The typed HTTP client of the payments API. It signs every merchant request with the digest
// scheme of spec section 5, exactly as the sandbox verifies it. The CLI uses it; so can you:
//   const client = new PayboxClient({ baseUrl, apiKey, apiSecret })
//   const payment = await client.payments.create({ amount: { value: 1250, currency: 'USD' }, description: 'Order 1' })
import { DIGEST_HEADERS, signDigest } from '../signing.js'
import { PayboxApiError, PayboxConnectionError } from './errors.js'
import type {
  AccountBalances,
  CreatePaymentRequest,
  CreateRefundRequest,
  Currency,
  ErrorBody,
  FeeTier,
  LedgerAccount,
  LedgerAccountRole,
  LedgerTransaction,
  LedgerTransactionsQuery,
  ListPaymentsQuery,
  ListRefundsQuery,
  Page,
  Payment,
  Refund,
  SandboxClock,
  SandboxFailRequest,
  SandboxMerchant,
  SandboxPayRequest,
} from './types.js'

export interface PayboxClientOptions {
  baseUrl: string
  apiKey?: string
  apiSecret?: string
  /** For the sandbox's own controls (/sandbox/…). */
  adminToken?: string
  /** Seconds since the epoch, for x-digest-timestamp; defaults to the real clock. */
  now?: () => number
  fetch?: typeof fetch
}

export type AuthMode = 'merchant' | 'admin' | 'none'

export interface RequestOptions {
  query?: Record<string, string | number | undefined>
  body?: unknown
  headers?: Record<string, string>
  auth?: AuthMode
}

export const ADMIN_TOKEN_HEADER = 'x-sandbox-admin-token'

export class PayboxClient {
  readonly baseUrl: string
  readonly #options: PayboxClientOptions

  constructor(options: PayboxClientOptions) {
    this.baseUrl = options.baseUrl.replace(/\/+$/, '')
    this.#options = options
  }

  readonly payments = {
    create: (body: CreatePaymentRequest, options: { idempotencyKey?: string } = {}) =>
      this.request<Payment>('POST', '/payments', {
        body,
        headers: options.idempotencyKey ? { 'Idempotency-Key': options.idempotencyKey } : {},
      }),
    get: (id: string) => this.request<Payment>('GET', `/payments/${encodeURIComponent(id)}`),
    list: (query: ListPaymentsQuery = {}) => this.request<Page<Payment>>('GET', '/payments', { query: { ...query } }),
    /** Takes what an underpaid payment received as payment in full: it becomes paid. */
    acceptUnderpayment: (id: string) => this.request<Payment>('POST', `/payments/${encodeURIComponent(id)}/accept-underpayment`),
    /** Pays the customer back over the ledger (default: everything still refundable). */
    refund: (id: string, body: CreateRefundRequest = {}) =>
      this.request<Refund>('POST', `/payments/${encodeURIComponent(id)}/refunds`, { body }),
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
    feeTier: () => this.request<FeeTier>('GET', '/merchant/fee-tier'),
  }

  readonly currencies = {
    list: () => this.request<{ items: Currency[] }>('GET', '/currencies'),
  }

  readonly sandbox = {
    health: () => this.request<{ status: string }>('GET', '/health', { auth: 'none' }),
    merchants: () => this.request<{ items: SandboxMerchant[] }>('GET', '/sandbox/merchants', { auth: 'admin' }),
    clock: () => this.request<SandboxClock>('GET', '/sandbox/clock', { auth: 'admin' }),
    /** A sandbox customer wallet pays the payment over the ledger (default: what remains). */
    pay: (paymentId: string, body: SandboxPayRequest = {}) =>
      this.request<Payment>('POST', `/sandbox/payments/${encodeURIComponent(paymentId)}/pay`, { body }),
    /** Simulates a processing failure: the payment becomes failed. */
    fail: (paymentId: string, body: SandboxFailRequest = {}) =>
      this.request<Payment>('POST', `/sandbox/payments/${encodeURIComponent(paymentId)}/fail`, { body }),
    /** Expires the payment now, whatever its expiresAt. */
    expire: (paymentId: string) => this.request<Payment>('POST', `/sandbox/payments/${encodeURIComponent(paymentId)}/expire`),
    advanceClock: (seconds: number) =>
      this.request<SandboxClock & { processed: Record<string, number> }>('POST', '/sandbox/clock/advance', {
        auth: 'admin',
        body: { seconds },
      }),
  }

  /** The simulated Stellar ledger, as the sandbox operator sees it (admin token). */
  readonly ledger = {
    accounts: (query: { role?: LedgerAccountRole } = {}) =>
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
    let response: Response
    try {
      response = await send(`${this.baseUrl}${target}`, { method, headers, body: body === '' ? undefined : body, redirect: 'manual' })
    } catch (error) {
      throw new PayboxConnectionError(this.baseUrl, error)
    }
    const text = await response.text()
    const parsed = parseJson(text)
    if (!response.ok) {
      const error = (parsed ?? {}) as Partial<ErrorBody>
      throw new PayboxApiError(
        response.status,
        error.reason ?? response.statusText,
        error.message ?? error.reason ?? `HTTP ${response.status}`,
        parsed ?? text,
      )
    }
    return parsed as T
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

function parseJson(text: string): unknown {
  if (text === '') return undefined
  try {
    return JSON.parse(text) as unknown
  } catch {
    return undefined
  }
}
