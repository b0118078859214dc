import fs from 'node:fs'
import { Flags } from '@oclif/core'
import { PayboxClient } from '../src/client/paybox-client.js'
import { ApiCommand } from '../src/cli/base-command.js'
import { UserError } from '../src/user-error.js'

export interface OpenApiWritten {
  output: string
  openapi: unknown
  paths: number
}

export default class OpenApi extends ApiCommand<typeof OpenApi> {
  static override summary = 'Print or save the OpenAPI 3.1 document of the API (for Postman, client generators, Prism)'
  static override description =
    'Fetches GET /openapi.json from the sandbox (no credentials needed): every endpoint, its request and response schemas, the ' +
    'digest-auth security scheme and every error. The document is generated from the schemas the server validates with.'

  static override examples = [
    '<%= config.bin %> <%= command.id %> > openapi.json',
    '<%= config.bin %> <%= command.id %> --output openapi.json',
  ]

  static override flags = {
    output: Flags.string({ char: 'o', description: 'Write the document to this file instead of standard output' }),
  }

  public async run(): Promise<Record<string, unknown> | OpenApiWritten> {
    const client = new PayboxClient({ baseUrl: this.connection().baseUrl })
    const document = await client.openapi()
    const text = `${JSON.stringify(document, null, 2)}\n`
    if (this.flags.output === undefined) {
      // The document is JSON either way; --json prints the same document.
      this.print(text.trimEnd())
      return document
    }
    try {
      fs.writeFileSync(this.flags.output, text)
    } catch (error) {
      throw new UserError(
        `Cannot write --output ${this.flags.output}: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`,
      )
    }
    const written = {
      output: this.flags.output,
      openapi: document.openapi,
      paths: Object.keys((document.paths as object | undefined) ?? {}).length,
    }
    this.print(`Wrote the OpenAPI ${String(written.openapi)} document (${written.paths} paths) to ${written.output}`)
    return written
  }
}
