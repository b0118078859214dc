// Resource types of the API, as a client sees them (spec section 2).

export interface Money {
  value: number
  currency: string
}

export interface HistoryEntry {
  time: number
  status: string
  description: string
}

export interface Payment {
  id: string
  createdAt: string
  updatedAt: string
  expiresAt: string
  mode: string
  amount: Money
  description: string
  status: string
  settlement_status: string
  redirectUrl?: string
  checkout_id: string
  webhookUrl?: string
  hostedUrl: string
  shortUrl?: string
  qrCode: string
  merchantName: string
  cancelUrl?: string
  locale: string
  metadata: Record<string, unknown>
  stellarTxId?: string
  settlement_stellarTxId?: string
  settlement_currency: string
  settlement_amount: number
  settlement_fee: number
  amount_paid: number
  history: HistoryEntry[]
  sender_account?: string
  asset_id: string
  refunded: boolean
  type: string
  partner_id?: string
  storeId?: string
  escrow_status?: string
  escrow_order_id?: string
  escrow_contract_address?: string
  escrow_platform_fee_bps?: number
}

export interface CreatePaymentRequest {
  amount: Money
  description: string
  redirectUrl?: string
  name?: string
  cancelUrl?: string
  webhookUrl?: string
  locale?: 'en' | 'es'
  metadata?: Record<string, unknown>
  partnerId?: string
  escrowPayee?: string
  escrowPlatformFee?: number
  expiresInHours?: number
  storeId?: string
  escrowExpiresAt?: string
}

export interface ListPaymentsQuery {
  page?: number
  limit?: number
  status?: string
  startDate?: string
  endDate?: string
  storeId?: string
}

export interface PageMeta {
  totalItems: number
  itemCount: number
  itemsPerPage: number
  totalPages: number
  currentPage: number
}

export interface PageLinks {
  first: string
  previous: string
  next: string
  last: string
}

export interface Page<T> {
  items: T[]
  meta: PageMeta
  links?: PageLinks
}

export interface Currency {
  resource: 'currencies'
  name: string
  code: string
  symbol: string
  precision: number
}

export interface SandboxMerchant {
  id: string
  name: string
  apiKey: string
  apiSecret: string
  settlement_mode: 'direct' | 'escrow'
  account: string
}

export interface SandboxClock {
  /** Business time, ISO 8601. */
  now: string
  /** How far business time has been advanced past the wall clock. */
  advancedSeconds: number
}

export interface ErrorBody {
  statusCode: number
  reason: string
  message?: string
}
