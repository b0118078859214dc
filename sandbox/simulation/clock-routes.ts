// Sandbox controls of business time (admin token): read the clock, move it forward, freeze
// and unfreeze it.
import { advanceBody, freezeBody } from '../../src/api/requests.js'
import { toIso } from '../clock.js'
import type { SandboxContext } from '../context.js'
import { badRequest, conflict } from '../errors.js'
import { noBody } from '../../src/api/validation.js'
import { advanceClock, ClockNotControllableError, freezeClock, readAdvancedMs, readFrozenAtMs, unfreezeClock } from './clock-service.js'
import type { Handlers } from '../http/declared-routes.js'

/** Refusals of the clock itself (moving backwards, an injected clock) as 4xx answers. */
export async function asClockChange<T>(change: () => Promise<T>): Promise<T> {
  try {
    return await change()
  } catch (error) {
    if (error instanceof RangeError) throw badRequest('at: must not be earlier than the current business time (it only moves forward)')
    if (error instanceof ClockNotControllableError) throw conflict('Conflict', error.message)
    throw error
  }
}

export function clockHandlers(ctx: SandboxContext) {
  // frozenAt is there only while the clock is frozen.
  const view = async () => {
    const frozenAt = await readFrozenAtMs(ctx.db)
    return {
      now: toIso(ctx.clock.now()),
      advancedSeconds: Math.floor((await readAdvancedMs(ctx.db)) / 1000),
      ...(frozenAt === undefined ? {} : { frozenAt: toIso(frozenAt) }),
    }
  }
  return {
    getSandboxClock: async (req, res) => {
      res.json(await view())
    },
    advanceSandboxClock: async (req, res) => {
      const { seconds } = advanceBody.parse(req.body)
      const processed = await advanceClock(ctx, seconds * 1000)
      res.json({ ...(await view()), processed })
    },
    freezeSandboxClock: async (req, res) => {
      // No body, or an object: a JSON null is refused like any other wrong type.
      const { at } = freezeBody.optional().parse(req.body) ?? {}
      await asClockChange(() => freezeClock(ctx, at))
      res.json(await view())
    },
    unfreezeSandboxClock: async (req, res) => {
      noBody.parse(req.body)
      await asClockChange(() => unfreezeClock(ctx))
      res.json(await view())
    },
  } satisfies Partial<Handlers>
}
