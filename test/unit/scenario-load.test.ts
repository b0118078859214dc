// Loading scenario files: every problem is reported once, as file:line:col at the node that
// holds it, with the path and what is wrong; a valid file comes back typed.
import { describe, expect, it } from 'vitest'
import { parseScenario, ScenarioFileError } from '../../src/scenario/load.js'

/** The one-line message loading `text` fails with. */
function problem(text: string): string {
  try {
    parseScenario(text, 'f.yaml')
  } catch (error) {
    expect(error).toBeInstanceOf(ScenarioFileError)
    expect((error as ScenarioFileError).exitCode).toBe(2)
    return (error as Error).message
  }
  throw new Error('the scenario loaded')
}

const payment = `  - id: payment
    createPayment: { amount: { value: 1000, currency: USD }, description: Order }
`

describe('parseScenario', () => {
  it('returns the scenario of a valid file, YAML or JSON', () => {
    const yaml = parseScenario(`name: Fine\nsteps:\n${payment}  - pay: { payment: "\${steps.payment.id}", amount: 500 }\n`, 'f.yaml')
    expect(yaml.scenario.steps[1]!.pay).toEqual({ payment: '${steps.payment.id}', amount: 500 })
    const json = parseScenario('{"name": "J", "merchant": {"create": "escrow"}, "steps": [{"advanceClock": {"by": "2h"}}]}', 'f.json')
    expect(json.scenario).toEqual({ name: 'J', merchant: { create: 'escrow' }, steps: [{ advanceClock: { by: '2h' } }] })
  })

  it('reports YAML syntax errors where they are', () => {
    expect(problem('name: x\nsteps:\n  - pay: { payment: x\n')).toMatch(/^f\.yaml:4:1: /)
    expect(problem('name: x\nname: y\nsteps: []\n')).toBe('f.yaml:2:1: Map keys must be unique')
  })

  it('points at the offending value with its path', () => {
    expect(problem(`name: x\nsteps:\n${payment}  - pay:\n      payment: "\${steps.payment.id}"\n      amount: 1.5\n`)).toBe(
      'f.yaml:7:15: steps[1].pay.amount: must be an integer',
    )
    expect(problem('name: x\nsteps:\n  - advanceClock: { by: soon }\n')).toBe(
      'f.yaml:3:25: steps[0].advanceClock.by: must be a duration such as 500ms, 10s, 31m, 2h or 7d',
    )
    expect(problem('name: x\nmerchant: { create: hybrid }\nsteps:\n  - advanceClock: { by: 1h }\n')).toMatch(/^f\.yaml:2:11: merchant: /)
  })

  it('reports a missing field at the object that lacks it', () => {
    expect(problem('name: x\nsteps:\n  - createPayment:\n      description: No amount\n')).toBe(
      'f.yaml:4:7: steps[0].createPayment.amount: expected object, received undefined',
    )
    expect(problem('steps:\n  - advanceClock: { by: 1h }\n')).toBe('f.yaml:1:1: name: expected string, received undefined')
  })

  it("points at an unknown field's key and lists the fields allowed there", () => {
    expect(problem('name: x\nsteps:\n  - pay: { payment: p, amout: 5 }\n')).toBe(
      'f.yaml:3:24: steps[0].pay.amout: unknown field; expected one of payment, amount, underpay, overpay, from, failSettlement, memo, asset',
    )
    expect(problem('name: x\nstesp: []\n')).toMatch(
      /^f\.yaml:2:1: stesp: unknown field; expected one of \$schema, name, description, merchant, receiver, steps/,
    )
  })

  it('wants exactly one action per step', () => {
    expect(problem('name: x\nsteps:\n  - name: nothing to do\n')).toMatch(
      /^f\.yaml:3:5: steps\[0\]: a step needs one action: createPayment, getPayment, /,
    )
    expect(problem('name: x\nsteps:\n  - advanceClock: { by: 1h }\n    expirePayment: { payment: p }\n')).toBe(
      'f.yaml:3:5: steps[0]: one action per step, got expirePayment and advanceClock',
    )
  })

  it('checks the rules between fields', () => {
    expect(problem('name: x\nsteps:\n  - pay: { payment: p, amount: 5, underpay: true }\n')).toBe(
      'f.yaml:3:10: steps[0].pay: give at most one of amount, underpay and overpay',
    )
    expect(problem('name: x\nsteps:\n  - expect: { value: 1, equals: 1, oneOf: [1] }\n')).toBe(
      'f.yaml:3:13: steps[0].expect: give exactly one of equals, notEquals, oneOf, matches',
    )
    expect(problem('name: x\nsteps:\n  - expect: { value: 1, payment: p, equals: 1 }\n')).toBe(
      'f.yaml:3:13: steps[0].expect: give exactly one of payment, invoice, refund, escrowOrder, step, value',
    )
    expect(problem('name: x\nsteps:\n  - expect: { value: a, matches: "([a-z]" }\n')).toBe(
      'f.yaml:3:34: steps[0].expect.matches: must be a valid regular expression',
    )
  })

  it('refuses references to steps that do not exist or run later, and to a receiver not asked for', () => {
    expect(problem(`name: x\nsteps:\n${payment}  - getPayment: { payment: "\${steps.pay.id}" }\n`)).toBe(
      'f.yaml:5:28: steps[1].getPayment.payment: ${steps.pay.id}: no step has id "pay"',
    )
    expect(problem(`name: x\nsteps:\n  - getPayment: { payment: "\${steps.payment.id}" }\n${payment}`)).toBe(
      'f.yaml:3:28: steps[0].getPayment.payment: ${steps.payment.id}: step "payment" runs later (steps[1]); refer only to earlier steps',
    )
    expect(
      problem('name: x\nsteps:\n  - expect: { step: later, field: id, equals: 1 }\n  - id: later\n    advanceClock: { by: 1h }\n'),
    ).toBe('f.yaml:3:21: steps[0].expect.step: step "later": step "later" runs later (steps[1]); refer only to earlier steps')
    expect(problem(`name: x\nsteps:\n${payment}  - getPayment: { payment: "\${receiver.url}" }\n`)).toBe(
      'f.yaml:5:28: steps[1].getPayment.payment: ${receiver.url}: the scenario has no receiver (add receiver: true)',
    )
    expect(problem(`name: x\nsteps:\n  - getPayment: { payment: "\${payment.id}" }\n`)).toBe(
      'f.yaml:3:28: steps[0].getPayment.payment: ${payment.id}: unknown root "payment"; references start with steps, receiver, merchant, run',
    )
  })

  it('refuses two steps with one id, at the second', () => {
    expect(problem(`name: x\nsteps:\n${payment}${payment}`)).toBe('f.yaml:5:9: steps[1].id: another step already has id "payment"')
  })

  it('names every problem, one line each, where it is', () => {
    expect(problem('name: ""\nsteps:\n  - advanceClock: { by: never }\n')).toBe(
      [
        'f.yaml:1:7: name: must not be empty',
        'f.yaml:3:25: steps[0].advanceClock.by: must be a duration such as 500ms, 10s, 31m, 2h or 7d',
      ].join('\n'),
    )
    // Two unknown fields of one step, each at its key; the misspelt one before what it leaves missing.
    expect(problem('name: x\nsteps:\n  - createPayment: { amout: { value: 1, currency: USD }, descripton: D }\n').split('\n')).toEqual([
      expect.stringMatching(/^f\.yaml:3:22: steps\[0\]\.createPayment\.amout: unknown field; /),
      expect.stringMatching(/^f\.yaml:3:58: steps\[0\]\.createPayment\.descripton: unknown field; /),
      'f.yaml:3:20: steps[0].createPayment.amount: expected object, received undefined',
      'f.yaml:3:20: steps[0].createPayment.description: expected string, received undefined',
    ])
    // And every reference that leads nowhere, not the first alone.
    expect(problem('name: x\nsteps:\n  - getPayment: { payment: "${steps.a.id}" }\n  - getPayment: { payment: "${steps.b.id}" }\n')).toBe(
      [
        'f.yaml:3:28: steps[0].getPayment.payment: ${steps.a.id}: no step has id "a"',
        'f.yaml:4:28: steps[1].getPayment.payment: ${steps.b.id}: no step has id "b"',
      ].join('\n'),
    )
  })
})
