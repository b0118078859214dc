// The dashboard on two replicas of one PostgreSQL sandbox: a sign-in link minted through one is
// redeemed through the other, the session is known to both, and a dashboard stream served by one
// hears of a payment made through the other (payment events come from the shared outbox).
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createTestDatabase, type TestDatabase } from '../../harness/postgres.js'
import { startTestSandbox, type TestSandbox } from '../../harness/sandbox.js'
import { readEvents } from '../../harness/sse.js'
import { waitFor } from '../../harness/wait.js'

describe('the dashboard on two replicas', () => {
  let database: TestDatabase
  let a: TestSandbox
  let b: TestSandbox

  beforeAll(async () => {
    database = await createTestDatabase('paybox_dashboard_replicas')
    a = await startTestSandbox({ db: database.url, webhookPollMs: 20 })
    b = await startTestSandbox({ db: database.url, webhookPollMs: 20 })
  })
  afterAll(async () => {
    await b?.stop()
    await a?.stop()
    await database?.drop()
  })

  const cookieName = (sandbox: TestSandbox) => `paybox_dashboard_${new URL(sandbox.url).port}`

  it('redeems on one replica a link minted on the other; that session sees live changes made through the first', async () => {
    const { url } = await a.admin.sandbox.dashboardLink()
    const onB = new URL(url)
    onB.host = new URL(b.url).host
    const signedIn = await fetch(onB.href, { redirect: 'manual' })
    expect(signedIn.status).toBe(303)
    const sessionId = /=([^;]+)/.exec(signedIn.headers.getSetCookie().find((line) => line.startsWith(cookieName(b)))!)![1]!
    // Once only, on any replica.
    expect((await fetch(url, { redirect: 'manual' })).status).toBe(401)
    // The session is in the database: replica A knows it too.
    const onA = await fetch(`${a.url}/dashboard/payments`, { redirect: 'manual', headers: { cookie: `${cookieName(a)}=${sessionId}` } })
    expect(onA.status).toBe(200)

    const controller = new AbortController()
    const stream = await fetch(`${b.url}/dashboard/events`, {
      headers: { cookie: `${cookieName(b)}=${sessionId}`, accept: 'text/event-stream' },
      signal: controller.signal,
    })
    expect(stream.status).toBe(200)
    const events = readEvents(stream)
    try {
      await waitFor('the ready event', () => events.received.some((event) => event.event === 'ready'))
      const payment = await a.direct.payments.create({ amount: { value: 700, currency: 'USD' }, description: 'Made through A' })
      await waitFor('the change on B', () =>
        events.received.some(
          (event) => event.event === 'change' && (JSON.parse(event.data) as { paymentId: string }).paymentId === payment.id,
        ),
      )
    } finally {
      controller.abort()
    }
  })
})
