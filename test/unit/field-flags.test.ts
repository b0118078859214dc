// API field paths named by the flag that sent them, derived from a command's flag definitions.
import { Flags } from '@oclif/core'
import { describe, expect, it } from 'vitest'
import { flagsByField, nameFlagsIn, sendsField } from '../../src/cli/field-flags.js'

const flags = {
  amount: Flags.string(),
  currency: Flags.string(),
  'refund-address': Flags.string(),
  'next-number': Flags.integer(),
  'address-line1': Flags.string(),
  item: sendsField('line_items', Flags.string({ multiple: true })),
  due: sendsField('due_at', Flags.string()),
  'due-in': sendsField('due_at', Flags.string()),
}

describe('flagsByField', () => {
  const flagOf = flagsByField(flags)

  it('finds the flag of the same name in any case: kebab, camel or snake', () => {
    expect(flagOf('refundAddress')).toBe('--refund-address')
    expect(flagOf('next_number')).toBe('--next-number')
    expect(flagOf('customer.address.line1')).toBe('--address-line1')
  })

  it('names a nested field by the flag of its end, else of its start with the whole path', () => {
    expect(flagOf('amount.currency')).toBe('--currency')
    expect(flagOf('amount.value')).toBe('--amount (amount.value)')
    expect(flagOf('line_items.0.unit_price')).toBe('--item (line_items.0.unit_price)')
  })

  it('takes the field a flag declares it sends, and among several flags the one given', () => {
    expect(flagOf('line_items')).toBe('--item')
    expect(flagOf('due_at')).toBe('--due')
    expect(flagsByField(flags, { 'due-in': '30d' })('due_at')).toBe('--due-in')
  })

  it('leaves a field no flag sent as the API named it', () => {
    expect(flagOf('customer')).toBeUndefined()
    expect(nameFlagsIn('customer: give exactly one of customer_id and customer', flagOf)).toBe(
      'customer: give exactly one of customer_id and customer',
    )
  })

  it('renames each problem of a message, and nothing in the middle of one', () => {
    expect(nameFlagsIn('next_number: must be at least 3; refundAddress: not valid', flagOf)).toBe(
      '--next-number: must be at least 3; --refund-address: not valid',
    )
    expect(nameFlagsIn('Payment pt_1 is open; amount: must be positive', flagOf)).toBe('Payment pt_1 is open; --amount: must be positive')
  })
})
