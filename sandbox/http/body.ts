// Reads request bodies as raw bytes (the digest signature covers them exactly), then parses
// JSON strictly: wrong content type, invalid UTF-8, malformed or absurdly nested JSON are 4xx.
// The Express middleware and the fast routes (fast-routes.ts) read and decode through the same
// two functions below.
import type http from 'node:http'
import express, { type RequestHandler } from 'express'
import { ApiError, badRequest } from '../errors.js'

/** The documented upper bound of a request body. */
export const MAX_BODY_BYTES = 256 * 1024
/** Deeper JSON than this is refused before anything walks it. */
export const MAX_JSON_DEPTH = 32

declare module 'express-serve-static-core' {
  interface Request {
    /** The request body exactly as received, decoded as UTF-8; "" when there is none. */
    rawBody: string
  }
}

/** A request body as received (rawBody) and parsed (body: undefined when there is none). */
export interface JsonBody {
  rawBody: string
  body: unknown
}

const readRaw = express.raw({ type: () => true, limit: MAX_BODY_BYTES })
// ignoreBOM keeps a leading byte order mark in rawBody: the signature covers the bytes as sent,
// and JSON.parse then refuses the BOM as malformed JSON instead of auth failing with no clue why.
const utf8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true })

/**
 * The body's bytes, read by body-parser (size limit, inflating gzip/deflate bodies, aborted
 * uploads); its errors carry the 4xx status errorResponse explains.
 */
export function readRawBody(req: http.IncomingMessage, res: http.ServerResponse): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const carrier = req as http.IncomingMessage & { body?: unknown }
    readRaw(carrier as express.Request, res as express.Response, (error?: unknown) => {
      if (error) return reject(error)
      resolve(Buffer.isBuffer(carrier.body) ? carrier.body : Buffer.alloc(0))
    })
  })
}

/** Decodes and parses a body read by readRawBody; throws the ApiError a bad one deserves. */
export function decodeJsonBody(bytes: Buffer, contentType: string | undefined): JsonBody {
  if (bytes.length === 0) return { rawBody: '', body: undefined }
  if (contentType !== undefined && !/^application\/([\w.+-]+\+)?json\s*(;|$)/i.test(contentType)) {
    throw new ApiError(415, 'Unsupported Media Type', 'Request bodies must be JSON (Content-Type: application/json)')
  }
  let rawBody: string
  try {
    rawBody = utf8.decode(bytes)
  } catch {
    throw badRequest('Request body is not valid UTF-8')
  }
  if (rawBody.trim() === '') return { rawBody, body: undefined }
  let body: unknown
  try {
    body = JSON.parse(rawBody) as unknown
  } catch (parseError) {
    throw badRequest(`Malformed JSON body: ${(parseError as Error).message}`)
  }
  refuseUnsafeJson(body)
  return { rawBody, body }
}

export const parseJsonBody: RequestHandler = (req, res, next) => {
  readRawBody(req, res)
    .then((bytes) => decodeJsonBody(bytes, req.headers['content-type']))
    .then(
      ({ rawBody, body }) => {
        req.rawBody = rawBody
        req.body = body
        next()
      },
      (error: unknown) => {
        req.rawBody = ''
        req.body = undefined
        next(error)
      },
    )
}

// Node 20 has it (ES2024), TypeScript's ES2023 library does not declare it.
declare global {
  interface String {
    /** False when the text holds a lone UTF-16 surrogate (JSON's "\ud800" escape can make one). */
    isWellFormed(): boolean
  }
}

const PROTO_KEY = '__proto__'

/**
 * Refuses, in one walk without recursion, what no field may hold, so each route need not check:
 * nesting past MAX_JSON_DEPTH; a lone UTF-16 surrogate in any text or key (invalid Unicode,
 * which PostgreSQL would store as U+FFFD and SQLite as is); and a "__proto__" key, which
 * JSON.parse keeps as an own key but zod's records drop silently (and with it any bound on it).
 */
export function refuseUnsafeJson(body: unknown): void {
  const stack: Array<[unknown, number]> = [[body, 1]]
  while (stack.length > 0) {
    const [item, depth] = stack.pop()!
    if (typeof item === 'string') {
      if (!item.isWellFormed()) throw badRequest(`${where(body, item)}: text must be valid Unicode (it holds a lone UTF-16 surrogate)`)
      continue
    }
    if (typeof item !== 'object' || item === null) continue
    if (depth > MAX_JSON_DEPTH) throw badRequest(`JSON body is nested deeper than ${MAX_JSON_DEPTH} levels`)
    if (Array.isArray(item)) {
      for (const child of item) stack.push([child, depth + 1])
      continue
    }
    for (const [key, child] of Object.entries(item)) {
      if (key === PROTO_KEY) throw badRequest(`${where(body, item)}: "${PROTO_KEY}" is not allowed as a key`)
      if (!key.isWellFormed()) throw badRequest(`${where(body, item)}: keys must be valid Unicode (one holds a lone UTF-16 surrogate)`)
      stack.push([child, depth + 1])
    }
  }
}

/** Where `target` is in `body`, for a refusal's message ("metadata.note"); found only then, so the walk above keeps no paths. */
function where(body: unknown, target: unknown): string {
  const search = (value: unknown, path: string[]): string[] | undefined => {
    if (value === target) return path
    // Not past the depth the walk allows: the rest of the body may not have been checked yet.
    if (typeof value !== 'object' || value === null || path.length >= MAX_JSON_DEPTH) return undefined
    for (const [key, child] of Object.entries(value)) {
      const found = search(child, [...path, key.isWellFormed() ? key : '(invalid key)'])
      if (found) return found
    }
    return undefined
  }
  const path = search(body, [])
  return path === undefined || path.length === 0 ? 'Request body' : path.join('.')
}
