// The JSON kept per payment version for GET /payments/{id}: only for the version it was
// rendered from, and only the most recently used ones up to the capacity.
import { describe, expect, it } from 'vitest'
import { RenderedPayments } from '../../sandbox/payments/rendered-payments.js'

describe('RenderedPayments', () => {
  it('answers a kept text for its version only', () => {
    const rendered = new RenderedPayments()
    expect(rendered.set('pt_a', 0, '{"v":0}')).toBe('{"v":0}')
    expect(rendered.get('pt_a', 0)).toBe('{"v":0}')
    expect(rendered.get('pt_a', 1)).toBeUndefined()
    expect(rendered.get('pt_b', 0)).toBeUndefined()
    rendered.set('pt_a', 1, '{"v":1}')
    expect(rendered.get('pt_a', 0)).toBeUndefined()
    expect(rendered.get('pt_a', 1)).toBe('{"v":1}')
  })

  it('keeps at most its capacity, evicting the least recently used', () => {
    const rendered = new RenderedPayments(2)
    rendered.set('pt_a', 0, 'a')
    rendered.set('pt_b', 0, 'b')
    expect(rendered.get('pt_a', 0)).toBe('a') // a is now the most recent
    rendered.set('pt_c', 0, 'c')
    expect(rendered.get('pt_b', 0)).toBeUndefined()
    expect(rendered.get('pt_a', 0)).toBe('a')
    expect(rendered.get('pt_c', 0)).toBe('c')
  })
})
