// Sandbox controls of the whole state (admin token): save, list, delete and restore snapshots,
// and reset to a fresh genesis. The swaps themselves are state-swap.ts's, which knows
// how to stop and start the services around the database.
import type { Request } from 'express'
import type { SandboxContext } from '../context.js'
import { notFound } from '../errors.js'
import { noBody } from '../../src/api/validation.js'
import { noRoute } from '../http/errors.js'
import type { SnapshotInfo } from './snapshot-store.js'
import { answering, type SandboxStateControls } from './state-controls.js'
import { saveSnapshotBody, snapshotName } from '../../src/api/contract/sandbox-admin.js'
import type { Handlers } from '../openapi/handlers.js'

const nameParam = (value: string): string => {
  const parsed = snapshotName.safeParse(value)
  if (!parsed.success) throw notFound(`No snapshot named "${value.slice(0, 64)}"`)
  return parsed.data
}

/**
 * Built with each state's app, so `ctx.db` is the database the sandbox runs on now. An app built
 * without state controls (a test's) answers these paths as routes it does not have.
 */
export function snapshotHandlers(ctx: SandboxContext, controls: SandboxStateControls | undefined) {
  const state = (req: Request) => {
    if (!controls) throw noRoute(req)
    return controls
  }
  return {
    listSnapshots: async (req, res) => {
      res.json({ items: await state(req).snapshots.list(ctx.db) })
    },
    saveSnapshot: async (req, res) => {
      const { snapshots } = state(req)
      const body = saveSnapshotBody.parse(req.body)
      const info: SnapshotInfo = await answering(() => snapshots.save(ctx.db, body.name, { replace: body.replace }))
      res.status(201).json(info)
    },
    getSnapshot: async (req, res) => {
      const { snapshots } = state(req)
      res.json(await answering(() => snapshots.get(ctx.db, nameParam(req.params.name))))
    },
    deleteSnapshot: async (req, res) => {
      const { snapshots } = state(req)
      noBody.parse(req.body)
      const name = nameParam(req.params.name)
      await answering(() => snapshots.remove(ctx.db, name))
      res.status(204).end()
    },
    restoreSnapshot: async (req, res) => {
      const swaps = state(req)
      noBody.parse(req.body)
      const name = nameParam(req.params.name)
      // Read before: the restore closes this state's database (`ctx.db`) when it starts the next.
      const snapshot = await answering(() => swaps.snapshots.get(ctx.db, name))
      const result = await answering(() => swaps.restore(name, res))
      res.json({ snapshot, ...result })
    },
    resetSandbox: async (req, res) => {
      const swaps = state(req)
      noBody.parse(req.body)
      res.json(await answering(() => swaps.reset(res)))
    },
  } satisfies Partial<Handlers>
}
