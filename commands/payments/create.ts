import { Flags } from '@oclif/core'
import type { CreatePaymentRequest, Payment } from '../../src/client/types.js'
import { amountAnswerCheck } from '../../src/cli/amount-input.js'
import { ApiCommand } from '../../src/cli/base-command.js'
import { UserError } from '../../src/user-error.js'
import { idempotencyKeyFlag, metadataFlag, minorUnitsFlag } from '../../src/cli/flag-values.js'
import { terminalQr } from '../../src/cli/output.js'
import { qrFlag, wantsQr } from '../../src/cli/qr-flag.js'
import { valueOrPrompt } from '../../src/cli/prompts.js'
import { fetchPrecisions, renderPayment } from '../../src/cli/render/payments.js'
import { LOCALES } from '../../src/api/enumerations.js'

export default class PaymentsCreate extends ApiCommand<typeof PaymentsCreate> {
  static override summary = 'Create a payment'
  static override description = 'Creates a payment order. --amount is in major units of the currency (12.50 USD, 1500 JPY).'
  static override examples = [
    '<%= config.bin %> <%= command.id %> --amount 12.50 --currency USD --description "Order #1042"',
    '<%= config.bin %> <%= command.id %> --amount 99 --currency EUR --description Hoodie --webhook-url https://example.test/hooks --metadata orderId=1042 --idempotency-key order-1042',
  ]

  static override flags = {
    amount: Flags.string({ description: 'Amount in major units, e.g. 12.50' }),
    currency: Flags.string({ description: 'Pricing currency (ISO 4217)', default: 'USD', parse: async (input) => input.toUpperCase() }),
    description: Flags.string({ description: 'Shown to the customer' }),
    'redirect-url': Flags.string({ description: 'Where the customer goes after paying' }),
    'cancel-url': Flags.string({ description: 'Where the customer goes on cancel (default: redirect URL)' }),
    'webhook-url': Flags.string({ description: "Receives the payment's webhook events" }),
    name: Flags.string({ description: 'Store name shown to the customer (default: merchant name)' }),
    locale: Flags.string({ description: 'Checkout page language', options: [...LOCALES] }),
    metadata: Flags.string({ description: 'Metadata entry key=value (repeatable)', multiple: true }),
    'partner-id': Flags.string({ description: 'Partner integration id' }),
    'store-id': Flags.string({ description: 'Store id, for multi-store merchants' }),
    'expires-in-hours': Flags.string({ description: 'Hours until the payment expires (default 0.5)' }),
    'escrow-payee': Flags.string({ description: 'Escrow payee account (escrow merchants)' }),
    'escrow-platform-fee': Flags.integer({ description: 'Escrow platform fee in basis points (escrow merchants)', min: 0, max: 10_000 }),
    'escrow-expires-at': Flags.string({ description: 'Escrow order expiry, ISO 8601 (escrow merchants)' }),
    'idempotency-key': idempotencyKeyFlag('creates a payment'),
    qr: qrFlag('the wallet payment URI'),
  }

  public async run(): Promise<Payment> {
    const { flags } = this
    const client = this.client()
    // The currency's precision first: a typed amount is checked at its question, not after the next.
    const precisions = await fetchPrecisions(client)
    const precision = precisions.get(flags.currency)
    if (precision === undefined)
      throw new UserError(`Unsupported --currency ${flags.currency}`, `one of ${[...precisions.keys()].join(', ')}`)
    const amountText = await valueOrPrompt(
      flags.amount,
      'amount',
      `Amount in ${flags.currency}`,
      amountAnswerCheck(flags.currency, precision),
    )
    const description = await valueOrPrompt(flags.description, 'description', 'Description shown to the customer')
    const value = minorUnitsFlag(amountText, flags.currency, precisions)

    const request: CreatePaymentRequest = {
      amount: { value, currency: flags.currency },
      description,
      redirectUrl: flags['redirect-url'],
      cancelUrl: flags['cancel-url'],
      webhookUrl: flags['webhook-url'],
      name: flags.name,
      locale: flags.locale as CreatePaymentRequest['locale'],
      metadata: flags.metadata ? metadataFlag(flags.metadata) : undefined,
      partnerId: flags['partner-id'],
      storeId: flags['store-id'],
      expiresInHours: flags['expires-in-hours'] === undefined ? undefined : parseHours(flags['expires-in-hours']),
      escrowPayee: flags['escrow-payee'],
      escrowPlatformFee: flags['escrow-platform-fee'],
      escrowExpiresAt: flags['escrow-expires-at'],
    }
    const payment = await client.payments.create(request, { idempotencyKey: flags['idempotency-key'] })
    this.print(renderPayment(payment, precisions))
    if (!this.jsonEnabled() && wantsQr(flags.qr)) this.print(await terminalQr(payment.qrCode))
    return payment
  }
}

function parseHours(text: string): number {
  const hours = Number(text)
  if (!/^\d+(\.\d+)?$/.test(text) || !(hours > 0)) throw new UserError(`--expires-in-hours must be a positive number, got "${text}"`)
  return hours
}
