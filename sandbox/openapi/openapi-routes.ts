// GET /openapi.json: the OpenAPI 3.1 document of this sandbox, no authentication, its server
// the sandbox's public URL. Built once, on the first request; the builder and every response
// schema load then too, not at start-up (the operation table is loaded already: the app routes by it).
import type { SandboxContext } from '../context.js'
import type { PublicHandlers } from './handlers.js'

export function openApiHandlers(ctx: Pick<SandboxContext, 'publicUrl'>) {
  let document: Promise<string> | undefined
  return {
    getOpenApiDocument: async (_req, res) => {
      document ??= import('./openapi-document.js').then(({ buildOpenApiDocument }) =>
        JSON.stringify(buildOpenApiDocument({ serverUrl: ctx.publicUrl })),
      )
      res.type('application/json').send(await document)
    },
  } satisfies Partial<PublicHandlers>
}
