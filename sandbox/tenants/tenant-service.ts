// Tenants: merchants made for one CI job or test worker, each with a business clock of its own,
// bounded per sandbox, and archived rather than deleted (the ledger keeps their transactions).
import type { SandboxContext } from '../context.js'
import { merchantNowOf } from '../clock.js'
import type { SettlementMode } from '../../src/api/enumerations.js'
import type { MerchantRow } from '../db/schema.js'
import { runTransaction } from '../db/database.js'
import { conflict, notFound } from '../errors.js'
import { archiveMerchant, countActiveTenants, findMerchantById } from '../merchants/merchant-repository.js'
import { createMerchant } from '../merchants/merchant-service.js'
import { hex } from '../random.js'
import { ownClockFromSandbox } from '../simulation/merchant-clock-service.js'
import { lockState } from '../state/sandbox-state.js'

export interface NewTenantInput {
  name?: string
  settlementMode?: SettlementMode
  escrowFeeBps?: number
  /** Its clock stands still at this instant; else it runs from the sandbox-wide time. */
  frozenAtMs?: number
}

type TenantContext = Pick<SandboxContext, 'db' | 'clock' | 'wallClock' | 'random' | 'tenants'>

/** A new tenant with fresh keys, or 409 while the sandbox has as many active tenants as it takes. */
export async function createTenant(ctx: TenantContext, input: NewTenantInput): Promise<MerchantRow> {
  const clock =
    input.frozenAtMs === undefined
      ? ownClockFromSandbox(ctx)
      : { clock_offset_ms: input.frozenAtMs - ctx.wallClock.now(), clock_frozen_at: input.frozenAtMs }
  return runTransaction(ctx.db, async (trx) => {
    // One row every creation locks: the count is of the tenants the creations before this one left, on any replica.
    await lockState(trx, 'tenant_creation')
    const max = ctx.tenants.maxTenants
    if ((await countActiveTenants(trx)) >= max)
      throw conflict(
        'Conflict',
        `This sandbox already has ${max} active tenants, its limit: archive one (DELETE /sandbox/tenants/{id}) first`,
      )
    return createMerchant(
      trx,
      ctx.random,
      {
        name: input.name ?? `Tenant ${hex(ctx.random, 4)}`,
        settlementMode: input.settlementMode ?? 'direct',
        ...(input.escrowFeeBps === undefined ? {} : { escrowFeeBps: input.escrowFeeBps }),
        tenant: { clockOffsetMs: clock.clock_offset_ms, clockFrozenAt: clock.clock_frozen_at },
      },
      ctx.clock.now(),
    )
  })
}

/** Archives a tenant at its own time; again, answers the first archiving's time. 404 for a merchant that is no tenant. */
export async function archiveTenant(ctx: TenantContext, id: string): Promise<{ id: string; archivedAtMs: number }> {
  return runTransaction(ctx.db, async (trx) => {
    const found = await findMerchantById(trx, id)
    if (!found || found.tenant !== 1) throw notFound(`No tenant ${id.slice(0, 64)}`)
    const archivedAtMs = await archiveMerchant(trx, id, merchantNowOf(ctx, found))
    return { id, archivedAtMs: archivedAtMs! }
  })
}
