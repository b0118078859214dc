// Sandbox controls of business time (admin token): read the clock, move it forward, freeze
// and unfreeze it.
import { advanceBody, freezeBody } from '../../src/api/clock-bodies.js'
import { toIso } from '../clock.js'
import type { SandboxContext } from '../context.js'
import { noBody } from '../../src/api/validation.js'
import { advanceClock, asClockChange, freezeClock, readAdvancedMs, readFrozenAtMs, unfreezeClock } from './clock-service.js'
import type { Handlers } from '../openapi/handlers.js'

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
