// Issue 20.2: a ledger refusal that no route mapped answered 500. The one error mapping now
// answers any LedgerError as a 400 naming the result codes, and logs nothing (it is not a bug).
import { describe, expect, it } from 'vitest'
import { errorResponse } from '../../sandbox/http/errors.js'
import { LedgerError } from '../../sandbox/ledger/ledger-errors.js'

describe('ledger errors at the one error mapping', () => {
  it('answers a 400 with the result codes, never a 500', () => {
    const logged: string[] = []
    const { body } = errorResponse(
      new LedgerError('tx_failed', 'Operation 1: the amount is too large', ['op_success', 'op_malformed']),
      (line) => logged.push(line),
    )
    expect(body.statusCode).toBe(400)
    expect(body.reason).toBe('Bad Request')
    expect(body.message).toContain('tx_failed, op_success, op_malformed')
    expect(body.message).toContain('the amount is too large')
    expect(logged).toEqual([])
  })
})
