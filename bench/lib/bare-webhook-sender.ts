// The control beside the webhook backlog figures: the same signed POSTs sent by undici alone (no
// database, no claims, no log), one keep-alive pool per receiver origin as the sandbox's sender
// has, at the concurrency the sandbox would use.
import { Pool } from 'undici'
import { deliveryHeaders } from '../../sandbox/webhooks/webhook-sender.js'

export interface BarePost {
  url: string
  /** The delivery id its header carries. */
  id: string
  body: string
}

/** Sends every post, `perOrigin` at once to each origin; the seconds it took. Throws on a non-2xx answer. */
export async function sendBare(posts: readonly BarePost[], secret: string, perOrigin: number): Promise<number> {
  const byOrigin = new Map<string, BarePost[]>()
  for (const post of posts) {
    const origin = new URL(post.url).origin
    byOrigin.set(origin, [...(byOrigin.get(origin) ?? []), post])
  }
  const pools = [...byOrigin.keys()].map((origin) => new Pool(origin, { connections: perOrigin }))
  const started = performance.now()
  try {
    await Promise.all(
      [...byOrigin.values()].flatMap((queue, i) => {
        const pool = pools[i]!
        let next = 0
        const worker = async () => {
          while (next < queue.length) {
            const post = queue[next++]!
            const url = new URL(post.url)
            const { statusCode, body } = await pool.request({
              method: 'POST',
              path: `${url.pathname}${url.search}`,
              body: post.body,
              headers: deliveryHeaders({ id: post.id, request_payload: post.body }, secret),
            })
            await body.text()
            if (statusCode < 200 || statusCode >= 300) throw new Error(`The receiver answered ${statusCode}`)
          }
        }
        return Array.from({ length: perOrigin }, worker)
      }),
    )
    return (performance.now() - started) / 1000
  } finally {
    await Promise.all(pools.map((pool) => pool.close()))
  }
}
