// Wire constants and enumerations live once in src/api and both sides of HTTP import them: a
// copy spelled out in src/ or sandbox/ would drift from the contract without the compiler noticing.
import fs from 'node:fs'
import path from 'node:path'
import { pathToFileURL } from 'node:url'
import { describe, expect, it } from 'vitest'
import * as enumerations from '../../src/api/enumerations.js'
import { wire } from '../../src/api/wire.js'
import * as headers from '../../src/api/headers.js'
import * as limits from '../../src/api/limits.js'
import * as paths from '../../src/api/paths.js'
import * as validation from '../../src/api/validation.js'
import { ROOT } from '../../harness/cli.js'
import { appSources } from '../../harness/app-sources.js'

/** Where the declarations are, and the migrations, which never import app code. */
const DECLARING = /^src\/api\/|^sandbox\/db\/migrations\//

const sources = () => appSources(DECLARING)

/** Every export of the contract's files, where each endpoint declares its limits. */
async function contractModules(): Promise<Record<string, unknown>> {
  const folder = path.join(ROOT, 'src', 'api', 'contract')
  const modules = await Promise.all(fs.readdirSync(folder).map((file) => import(pathToFileURL(path.join(folder, file)).href)))
  return Object.assign({}, ...modules) as Record<string, unknown>
}

/** The value as a string literal of the code (any letter case: header names are read lower-cased). */
const quoted = (value: string) => new RegExp(`(['\`])${value.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')}\\1`, 'i')

describe('declared once in src/api', () => {
  it('no header name or mount path is spelled out in src/ or sandbox/', () => {
    const values = [
      ...Object.values(headers).flatMap((value) => (typeof value === 'string' ? [value] : Object.values(value))),
      ...Object.values(paths),
    ]
    const found = sources().flatMap(({ file, text }) =>
      values.filter((value) => quoted(value).test(text)).map((value) => `${file}: ${value}`),
    )
    expect(found).toEqual([])
  })

  it('no enumeration is written out again as a union type in src/ or sandbox/', () => {
    const lists = (Object.values(enumerations) as unknown[]).filter((value): value is readonly string[] => Array.isArray(value))
    const union = /'[\w-]+'(?:\s*\|\s*'[\w-]+')+/g
    const found = sources().flatMap(({ file, text }) =>
      [...text.matchAll(union)]
        .map(([match]) => match.split('|').map((member) => member.trim().slice(1, -1)))
        .filter((members) => lists.some((list) => list.length === members.length && list.every((value) => members.includes(value))))
        .map((members) => `${file}: ${members.join(' | ')}`),
    )
    expect(found).toEqual([])
  })

  it('no limit of the API is declared again in src/ or sandbox/', async () => {
    const names = Object.keys({ ...limits, ...validation, ...(await contractModules()) }).filter((name) => /^(MAX|MIN)_/.test(name))
    const found = sources().flatMap(({ file, text }) =>
      names.filter((name) => new RegExp(`const ${name}\\s*=`).test(text)).map((name) => `${file}: ${name}`),
    )
    expect(found).toEqual([])
  })

  it('the fast routes take their methods and paths from the endpoint declarations', () => {
    const fastRoutes = sources().find(({ file }) => file.endsWith('/fast-routes.ts'))!
    const spelled = [wire.payments.create, wire.payments.get].flatMap(({ path: declared }) => {
      const prefix = declared.split('/:')[0]!
      return [quoted(declared), quoted(prefix), new RegExp(prefix.replaceAll('/', '\\\\/'))].filter((pattern) =>
        pattern.test(fastRoutes.text),
      )
    })
    expect(spelled.map(String)).toEqual([])
    expect(fastRoutes.text).not.toMatch(/['"](GET|POST)['"]/)
  })
})
