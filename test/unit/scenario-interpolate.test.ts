// `${…}` references: a whole-string reference keeps its value's type, embedded ones become
// text, `$${` is a literal, and a reference that leads nowhere says exactly where it stopped.
import { describe, expect, it } from 'vitest'
import { interpolate, parsePath, referencesIn, type ReferenceScope } from '../../src/scenario/interpolate.js'

const scope: ReferenceScope = {
  steps: {
    create: { id: 'pt_1', amount: { value: 1000, currency: 'USD' }, history: [{ status: 'open' }, { status: 'paid' }] },
  },
  receiver: { url: 'http://127.0.0.1:5000/webhooks' },
  merchant: { id: 'm_1' },
  run: { id: 'run-1' },
}

describe('interpolate', () => {
  it('replaces a whole-string reference with the value itself', () => {
    expect(interpolate({ amount: '${steps.create.amount.value}', money: '${steps.create.amount}' }, scope)).toEqual({
      amount: 1000,
      money: { value: 1000, currency: 'USD' },
    })
  })

  it('writes references inside longer text as text, objects as JSON', () => {
    expect(interpolate('Order ${steps.create.id} for ${merchant.id}: ${steps.create.amount}', scope)).toBe(
      'Order pt_1 for m_1: {"value":1000,"currency":"USD"}',
    )
  })

  it('follows array indexes and reaches into nested arrays and objects', () => {
    expect(interpolate(['${steps.create.history[1].status}', { deep: ['${receiver.url}'] }], scope)).toEqual([
      'paid',
      { deep: ['http://127.0.0.1:5000/webhooks'] },
    ])
  })

  it('leaves $${…} as a literal ${…}', () => {
    expect(interpolate('price: $${steps.create.id} and ${run.id}', scope)).toBe('price: ${steps.create.id} and run-1')
  })

  it('leaves values without references alone', () => {
    expect(interpolate({ n: 5, b: true, none: null, text: 'plain $ and { }' }, scope)).toEqual({
      n: 5,
      b: true,
      none: null,
      text: 'plain $ and { }',
    })
  })

  it('says which step did not run, and where a path stopped', () => {
    expect(() => interpolate('${steps.pay.id}', scope)).toThrow('${steps.pay.id}: no earlier step with id "pay" has run')
    expect(() => interpolate('x ${steps.create.amount.cents}', scope)).toThrow(
      '${steps.create.amount.cents}: the result of step "create" has no amount.cents',
    )
    expect(() => interpolate('${steps.create.history[5].status}', scope)).toThrow('the result of step "create" has no history[5].status')
    expect(() => interpolate('${receiver.url}', { ...scope, receiver: undefined })).toThrow(
      '${receiver.url}: the scenario has no receiver (add receiver: true)',
    )
  })

  it('refuses malformed references', () => {
    expect(() => interpolate('${steps..id}', scope)).toThrow('${steps..id} is not a reference')
    expect(() => interpolate('${steps}', scope)).toThrow('${steps}: name a step')
  })
})

describe('referencesIn and parsePath', () => {
  it('finds every reference but the escaped ones', () => {
    expect(referencesIn('${steps.a.id}-$${steps.b.id}-${receiver.url}').map((reference) => reference.expression)).toEqual([
      'steps.a.id',
      'receiver.url',
    ])
  })

  it('reads dotted paths with indexes', () => {
    expect(parsePath('history[0].status')).toEqual(['history', 0, 'status'])
    expect(parsePath('a.b-c.d_e')).toEqual(['a', 'b-c', 'd_e'])
    expect(parsePath('a[x]')).toBeUndefined()
    expect(parsePath('.a')).toBeUndefined()
  })
})
