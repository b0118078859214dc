// The receiver a scenario starts: it accepts exactly what a correct receiver accepts — a body
// whose X-WEBHOOK-AUTH verifies with the merchant's secret over the raw bytes — and records it.
import { afterEach, describe, expect, it } from 'vitest'
import { startScenarioReceiver, type ScenarioReceiver } from '../../src/scenario/receiver.js'
import { signWebhook } from '../../src/signing.js'

describe('startScenarioReceiver', () => {
  let receiver: ScenarioReceiver | undefined
  afterEach(() => receiver?.close())

  const post = (body: string, signature?: string) =>
    fetch(receiver!.url, {
      method: 'POST',
      body,
      headers: { 'content-type': 'application/json', ...(signature ? { 'x-webhook-auth': signature } : {}) },
    })

  it('listens on loopback and answers 200 to a correctly signed body', async () => {
    receiver = await startScenarioReceiver('sk_test_secret')
    expect(receiver.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/webhooks$/)
    const body = '{"data":{"id":"pt_1","status":"paid"}}'
    const response = await post(body, signWebhook(body, 'sk_test_secret'))
    expect(response.status).toBe(200)
    expect(receiver.received).toEqual([{ body, signature: signWebhook(body, 'sk_test_secret'), verified: true }])
  })

  it('answers 401 to a wrong, missing or re-serialized signature, and records each as unverified', async () => {
    receiver = await startScenarioReceiver('sk_test_secret')
    const body = '{"data": {"id": "pt_1"}}'
    const reserialized = signWebhook(JSON.stringify(JSON.parse(body)), 'sk_test_secret')
    for (const signature of [signWebhook(body, 'sk_other'), undefined, reserialized]) {
      expect((await post(body, signature)).status).toBe(401)
    }
    expect(receiver.received.map((request) => request.verified)).toEqual([false, false, false])
  })

  it('refuses anything but POST', async () => {
    receiver = await startScenarioReceiver('sk_test_secret')
    expect((await fetch(receiver.url)).status).toBe(405)
    expect(receiver.received).toEqual([])
  })
})
