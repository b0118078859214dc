// The dashboard's one API endpoint: a one-time sign-in link, minted with the admin token
// (`paybox dashboard` asks for it).
import { toIso } from '../clock.js'
import type { SandboxContext } from '../context.js'
import type { Handlers } from '../openapi/handlers.js'
import { publicLink } from '../public-links.js'
import { noBody } from '../../src/api/validation.js'
import { DashboardSessions } from './dashboard-sessions.js'
import { SIGN_IN_PATH } from './dashboard-sign-in.js'

export function dashboardHandlers(ctx: SandboxContext) {
  const sessions = new DashboardSessions(ctx.db, ctx.wallClock)
  return {
    createDashboardSignInLink: async (req, res) => {
      noBody.parse(req.body)
      const { token, expiresAt } = await sessions.mintAdminSignInToken()
      res.status(201).json({ url: publicLink(ctx.publicUrl, SIGN_IN_PATH, { token }), expiresAt: toIso(expiresAt) })
    },
  } satisfies Partial<Handlers>
}
