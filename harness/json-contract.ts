// A command's --json output against its schema as JSON Schema (ajv), as a script in any language
// would read it: a field the schema does not list fails.
import Ajv2020Module from 'ajv/dist/2020.js'
import addFormatsModule from 'ajv-formats'
import { expect } from 'vitest'
import { z } from 'zod'
import { COMMAND_JSON_SCHEMAS } from '../src/cli/command-json-schemas.js'

const Ajv2020 = Ajv2020Module.default
const addFormats = addFormatsModule.default

const ajv = new Ajv2020({ strict: false, allErrors: true })
addFormats(ajv)
const validators = new Map<z.ZodType, ReturnType<typeof ajv.compile>>()

/** Errors of `value` against the JSON Schema of `schema` ('' when it conforms). */
export function jsonSchemaErrors(schema: z.ZodType, value: unknown): string {
  let validate = validators.get(schema)
  if (!validate) {
    validate = ajv.compile(z.toJSONSchema(schema, { target: 'draft-2020-12', io: 'output', unrepresentable: 'any' }))
    validators.set(schema, validate)
  }
  return validate(value) ? '' : ajv.errorsText(validate.errors, { separator: '\n' })
}

/** `value` (one document, or one line of a stream) is what command `id` promises to print with --json. */
export function expectCommandJson(id: string, value: unknown): void {
  const contract = COMMAND_JSON_SCHEMAS[id]
  if (!contract) throw new Error(`no --json schema for ${id}`)
  expect(jsonSchemaErrors(contract.schema, value), `paybox ${id.replaceAll(':', ' ')} --json does not match its schema`).toBe('')
}
