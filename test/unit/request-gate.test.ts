// The request gate's pause for another replica (snapshots/request-gate.ts): it reports the first
// request it holds, and gives up draining once the pause is no longer needed, letting every held
// request through.
import { EventEmitter } from 'node:events'
import type { ServerResponse } from 'node:http'
import { describe, expect, it } from 'vitest'
import { GateBusyError, RequestGate } from '../../sandbox/snapshots/request-gate.js'

/** Enough of a response for the gate: it leaves once 'close' is emitted. */
const response = () => new EventEmitter() as unknown as ServerResponse

describe('RequestGate', () => {
  it('reports the first request it holds, once, and lets the held ones in when the work is done', async () => {
    const gate = new RequestGate()
    let holds = 0
    const handled: string[] = []
    let finish!: () => void
    const work = new Promise<void>((resolve) => (finish = resolve))
    expect(gate.busy).toBe(false)
    const running = gate.exclusive(undefined, () => work, 1_000, { onHold: () => holds++ })
    expect(gate.busy).toBe(true)
    gate.admit(response(), () => handled.push('first'))
    gate.admit(response(), () => handled.push('second'))
    expect(holds).toBe(1)
    expect(handled).toEqual([])
    finish()
    await running
    expect(handled).toEqual(['first', 'second'])
    expect(gate.busy).toBe(false)
  })

  it('stops waiting for the requests inside once told the work is no longer needed, without running it', async () => {
    const gate = new RequestGate()
    gate.admit(response(), () => {})
    const over = new AbortController()
    let ran = false
    const running = gate.exclusive(
      undefined,
      async () => {
        ran = true
      },
      60_000,
      { signal: over.signal },
    )
    const held: string[] = []
    gate.admit(response(), () => held.push('held'))
    over.abort()
    await expect(running).rejects.toBeInstanceOf(GateBusyError)
    expect(ran).toBe(false)
    expect(held).toEqual(['held'])
  })
})
