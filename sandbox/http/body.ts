// Reads request bodies as raw bytes (the digest signature covers them exactly), then parses
// JSON strictly: wrong content type, invalid UTF-8, malformed or absurdly nested JSON are 4xx.
import express, { type RequestHandler } from 'express'
import { HttpError, badRequest } from './errors.js'

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

const readRaw = express.raw({ type: () => true, limit: MAX_BODY_BYTES })
// ignoreBOM keeps a leading byte order mark in rawBody: the signature covers the bytes as sent,
// and JSON.parse then refuses the BOM as malformed JSON instead of auth failing with no clue why.
const utf8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true })

export const parseJsonBody: RequestHandler = (req, res, next) => {
  readRaw(req, res, (error?: unknown) => {
    if (error) return next(error)
    const bytes = Buffer.isBuffer(req.body) ? req.body : Buffer.alloc(0)
    req.body = undefined
    req.rawBody = ''
    if (bytes.length === 0) return next()
    const type = req.headers['content-type']
    if (type !== undefined && !/^application\/([\w.+-]+\+)?json\s*(;|$)/i.test(type)) {
      return next(new HttpError(415, 'Unsupported Media Type', 'Request bodies must be JSON (Content-Type: application/json)'))
    }
    try {
      req.rawBody = utf8.decode(bytes)
    } catch {
      return next(badRequest('Request body is not valid UTF-8'))
    }
    if (req.rawBody.trim() === '') return next()
    try {
      req.body = JSON.parse(req.rawBody) as unknown
    } catch (parseError) {
      return next(badRequest(`Malformed JSON body: ${(parseError as Error).message}`))
    }
    if (jsonDepth(req.body, MAX_JSON_DEPTH) > MAX_JSON_DEPTH) {
      return next(badRequest(`JSON body is nested deeper than ${MAX_JSON_DEPTH} levels`))
    }
    next()
  })
}

/** Depth of a parsed JSON value, computed without recursion and cut off past `limit`. */
export function jsonDepth(value: unknown, limit: number): number {
  let deepest = 0
  const stack: Array<[unknown, number]> = [[value, 1]]
  while (stack.length > 0) {
    const [item, depth] = stack.pop()!
    if (typeof item !== 'object' || item === null) continue
    deepest = Math.max(deepest, depth)
    if (deepest > limit) return deepest
    for (const child of Object.values(item)) stack.push([child, depth + 1])
  }
  return deepest
}
