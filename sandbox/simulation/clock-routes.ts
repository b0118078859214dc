// Sandbox controls of business time (admin token): read the clock, move it forward.
import { Router } from 'express'
import { z } from 'zod'
import { toIso } from '../clock.js'
import type { SandboxContext } from '../context.js'
import { advanceClock, readAdvancedMs } from './clock-service.js'

/** Ten years: more than any expiry or due date needs. */
const MAX_ADVANCE_SECONDS = 10 * 366 * 24 * 3600

const advanceBody = z.strictObject({
  seconds: z
    .number()
    .int({ message: 'must be a whole number of seconds' })
    .positive({ message: 'must be greater than 0' })
    .max(MAX_ADVANCE_SECONDS, { message: `must be at most ${MAX_ADVANCE_SECONDS} (ten years)` }),
})

export function clockRoutes(ctx: SandboxContext): Router {
  const router = Router()
  const view = async () => ({ now: toIso(ctx.clock.now()), advancedSeconds: Math.floor((await readAdvancedMs(ctx.db)) / 1000) })

  router.get('/sandbox/clock', async (_req, res) => {
    res.json(await view())
  })

  router.post('/sandbox/clock/advance', async (req, res) => {
    const { seconds } = advanceBody.parse(req.body)
    const processed = await advanceClock(ctx, seconds * 1000)
    res.json({ ...(await view()), processed })
  })
  return router
}
