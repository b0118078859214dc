// The published JSON Schema is exactly what the zod schema generates, and it accepts every
// shipped scenario and refuses what the loader refuses, so editors and the CLI agree.
import fs from 'node:fs'
import path from 'node:path'
// ajv comes with the OpenAPI validator (a dev dependency); it is a real JSON Schema 2020-12 validator.
import { Ajv2020 } from 'ajv/dist/2020.js'
import { parse } from 'yaml'
import { describe, expect, it } from 'vitest'
import { scenarioJsonSchemaText, SCENARIO_SCHEMA_ID } from '../../src/scenario/schema.js'
import { ROOT } from '../../harness/cli.js'

const SCENARIOS = path.join(ROOT, 'scenarios')
const published = fs.readFileSync(path.join(SCENARIOS, 'scenario.schema.json'), 'utf8')

describe('scenarios/scenario.schema.json', () => {
  it('is the file npm run scenario:schema generates', () => {
    expect(published).toBe(scenarioJsonSchemaText())
  })

  it('is JSON Schema 2020-12 with an $id and descriptions', () => {
    const schema = JSON.parse(published) as Record<string, unknown>
    expect(schema).toMatchObject({
      $schema: 'https://json-schema.org/draft/2020-12/schema',
      $id: SCENARIO_SCHEMA_ID,
      title: 'paybox scenario',
    })
    expect(typeof schema.description).toBe('string')
  })

  const validate = new Ajv2020({ strict: false, allErrors: true }).compile(JSON.parse(published) as object)
  const shipped = fs.readdirSync(SCENARIOS).filter((name) => name.endsWith('.yaml'))

  it.each(shipped)('accepts %s, which names it for editors', (name) => {
    const text = fs.readFileSync(path.join(SCENARIOS, name), 'utf8')
    expect(text.startsWith('# yaml-language-server: $schema=./scenario.schema.json\n')).toBe(true)
    expect(validate(parse(text)), JSON.stringify(validate.errors)).toBe(true)
  })

  it('refuses a step with no action, two actions, or an unknown field', () => {
    const scenario = (step: object) => ({ name: 'x', steps: [step] })
    expect(validate(scenario({ name: 'idle' }))).toBe(false)
    expect(validate(scenario({ advanceClock: { by: '1h' }, expirePayment: { payment: 'p' } }))).toBe(false)
    expect(validate(scenario({ pay: { payment: 'p', amout: 5 } }))).toBe(false)
    expect(validate(scenario({ pay: { payment: 'p', amount: '${steps.a.amount.value}' } }))).toBe(true)
  })
})
