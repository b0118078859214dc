// The matchers of `expect`, on values a scenario already holds: each passes on what it
// promises and fails saying what it found instead.
import { describe, expect, it } from 'vitest'
import { PayboxClient } from '../../src/client/paybox-client.js'
import { expectValue } from '../../src/scenario/expectations.js'
import type { ScenarioRuntime } from '../../src/scenario/runtime.js'
import type { StepArgs } from '../../src/scenario/schema.js'

// Value and step subjects never reach the API: the client points nowhere.
const runtime: ScenarioRuntime = {
  client: new PayboxClient({ baseUrl: 'http://127.0.0.1:9' }),
  admin: () => {
    throw new Error('no admin')
  },
  clock: () => {
    throw new Error('no admin')
  },
  createMerchant: () => Promise.reject(new Error('no admin')),
  merchant: { id: 'm', name: 'M', account: 'G', settlement_mode: 'direct' },
  results: { created: { status: 'underpaid', amount: { value: 1000, currency: 'USD' }, history: [{ status: 'open' }] } },
  startBalances: new Map(),
}
const check = (args: StepArgs<'expect'>) => expectValue(args, runtime)

describe('expect', () => {
  it('equals compares deeply and strictly, types included', async () => {
    await expect(check({ step: 'created', field: 'amount', equals: { value: 1000, currency: 'USD' } })).resolves.toEqual({
      value: 1000,
      currency: 'USD',
    })
    await expect(check({ step: 'created', field: 'amount.value', equals: '1000' })).rejects.toThrow(
      'amount.value was 1000, expected "1000"',
    )
    await expect(check({ step: 'created', field: 'history[0].status', equals: 'paid' })).rejects.toThrow(
      'history[0].status was "open", expected "paid"',
    )
  })

  it('notEquals, oneOf and matches', async () => {
    await expect(check({ step: 'created', field: 'status', notEquals: 'paid' })).resolves.toBe('underpaid')
    await expect(check({ step: 'created', field: 'status', notEquals: 'underpaid' })).rejects.toThrow(
      'status was "underpaid", expected anything but that',
    )
    await expect(check({ step: 'created', field: 'status', oneOf: ['paid', 'underpaid'] })).resolves.toBe('underpaid')
    await expect(check({ step: 'created', field: 'status', oneOf: ['paid', 'open'] })).rejects.toThrow(
      'status was "underpaid", expected one of ["paid","open"]',
    )
    await expect(check({ value: 'INV-2026-0001', matches: '^INV-\\d{4}-\\d{4}$' })).resolves.toBe('INV-2026-0001')
    await expect(check({ value: 1234, matches: '^\\d+$' })).resolves.toBe(1234)
    await expect(check({ value: 'pt_1', matches: '^rf_' })).rejects.toThrow('the value was "pt_1", expected to match /^rf_/')
  })

  it('a field that is not there is undefined, and says so', async () => {
    await expect(check({ step: 'created', field: 'refunded', equals: true })).rejects.toThrow('refunded was undefined, expected true')
    await expect(check({ step: 'created', field: 'a..b', equals: 1 })).rejects.toThrow('field "a..b" is not a path')
  })

  it('within is only for what can be fetched again', async () => {
    await expect(check({ step: 'created', field: 'status', equals: 'underpaid', within: '1s' })).rejects.toThrow(
      'within applies only to a fetched payment, invoice, refund or escrowOrder',
    )
  })
})
