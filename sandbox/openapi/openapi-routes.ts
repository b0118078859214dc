// GET /openapi.json: the OpenAPI 3.1 document of this sandbox, no authentication, its server
// the sandbox's public URL. Built once, on the first request; the builder and every response
// schema load then too, not at start-up (the operation table is loaded already: the app routes by it).
import { Router } from 'express'
import type { SandboxContext } from '../context.js'

export const OPENAPI_PATH = '/openapi.json'

export function openApiRoutes(ctx: Pick<SandboxContext, 'publicUrl'>): Router {
  let document: Promise<string> | undefined
  return Router().get(OPENAPI_PATH, async (_req, res) => {
    document ??= import('./openapi-document.js').then(({ buildOpenApiDocument }) =>
      JSON.stringify(buildOpenApiDocument({ serverUrl: ctx.publicUrl })),
    )
    res.type('application/json').send(await document)
  })
}
