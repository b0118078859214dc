// A valid POST /payments body for the cases to break, and the poster of the POST /payments families.
import { error, setOwn, toJson, type CaseWriter, type HostileCase, type PaymentField } from './hostile-case.js'
import type { Rng } from './rng.js'

const CURRENCIES = ['USD', 'EUR', 'GBP', 'JPY', 'CHF', 'CAD', 'AUD', 'MXN', 'BRL']

type Body = Record<string, unknown> & { amount: Record<string, unknown> }

/** A body the direct merchant could create a payment with; cases then break it. */
export function validBody(rng: Rng): Body {
  const body: Body = {
    amount: { value: rng.int(1, 1_000_000), currency: rng.pick(CURRENCIES) },
    description: `Order ${rng.text(1, 30)}x`,
  }
  if (rng.chance(0.3)) body.redirectUrl = `https://shop.example/thanks/${rng.hex(6)}`
  if (rng.chance(0.2)) body.cancelUrl = `https://shop.example/cancel/${rng.hex(6)}`
  if (rng.chance(0.2)) body.webhookUrl = `http://127.0.0.1:9/hook/${rng.hex(6)}`
  if (rng.chance(0.2)) body.name = `Store ${rng.hex(4)}`
  if (rng.chance(0.2)) body.locale = rng.pick(['en', 'es'])
  if (rng.chance(0.2)) body.metadata = { orderId: rng.hex(8), nested: { n: rng.int(0, 9) } }
  if (rng.chance(0.15)) body.partnerId = `partner-${rng.hex(4)}`
  if (rng.chance(0.15)) body.storeId = `store-${rng.hex(4)}`
  if (rng.chance(0.2)) body.expiresInHours = rng.int(1, 72)
  return body
}

export function setField(body: Body, field: PaymentField, value: unknown): Body {
  if (field === 'amount.value' || field === 'amount.currency') {
    body.amount = { ...body.amount }
    setOwn(body.amount, field.slice('amount.'.length), value)
  } else {
    setOwn(body, field, value)
  }
  return body
}

/** A valid body whose description makes it exactly `bytes` long. */
export function oversized(rng: Rng, bytes: number): string {
  const body = validBody(rng)
  const overhead = Buffer.byteLength(toJson({ ...body, description: '' }))
  return toJson({ ...body, description: 'o'.repeat(bytes - overhead) })
}

/** A POST /payments case, signed by the direct merchant unless `extra` says otherwise. */
export const paymentPoster =
  (add: CaseWriter['add']) =>
  (family: string, name: string, body: string | Uint8Array, status: number, extra: Partial<HostileCase> = {}) =>
    add({
      endpoint: 'POST /payments',
      family,
      method: 'POST',
      path: '/payments',
      name: `/payments ${family}: ${name}`,
      body,
      signAs: 'direct',
      expect: error(status),
      ...extra,
    })
