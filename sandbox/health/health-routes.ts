// GET /health (no auth): 200 {status: 'ok', checks, sandbox} when every part works, otherwise 503 with
// the usual error body plus the checks, so a readiness probe needs nothing but the status.
import { requestIdOf } from '../http/request-notes.js'
import type { HealthService } from './health-service.js'
import type { PublicHandlers } from '../openapi/handlers.js'

export function healthHandlers(health: HealthService) {
  return {
    getHealth: async (_req, res) => {
      const report = await health.check()
      if (report.status === 'ok') {
        res.json({ status: 'ok', checks: report.checks, sandbox: report.sandbox })
        return
      }
      const failing = Object.entries(report.checks)
        .filter(([, check]) => check.status !== 'ok')
        .map(([name, check]) => `${name}: ${check.detail ?? 'failing'}`)
      res.status(503).json({
        statusCode: 503,
        reason: 'Service Unavailable',
        message: failing.join('; '),
        requestId: requestIdOf(res),
        checks: report.checks,
      })
    },
  } satisfies Partial<PublicHandlers>
}
