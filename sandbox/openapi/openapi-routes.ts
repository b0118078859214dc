// GET /openapi.json: the OpenAPI 3.1 document of this sandbox, no authentication, its server
// the sandbox's public URL. Built once, on the first request.
import { Router } from 'express'
import type { SandboxContext } from '../context.js'
import { buildOpenApiDocument } from './openapi-document.js'

export const OPENAPI_PATH = '/openapi.json'

export function openApiRoutes(ctx: Pick<SandboxContext, 'publicUrl'>): Router {
  let document: string | undefined
  return Router().get(OPENAPI_PATH, (_req, res) => {
    document ??= JSON.stringify(buildOpenApiDocument({ serverUrl: ctx.publicUrl }))
    res.type('application/json').send(document)
  })
}
