// /sandbox/tenants (admin token): create, list and archive tenants (docs/clocks.md).
import { createTenantBody } from '../../src/api/contract/tenants.js'
import { toIso } from '../clock.js'
import type { SandboxContext } from '../context.js'
import { badRequest } from '../errors.js'
import type { MerchantRow } from '../db/schema.js'
import type { Handlers } from '../openapi/handlers.js'
import { clientAddressOf, takeOrRefuse } from '../http/rate-limit.js'
import { listActiveTenants } from '../merchants/merchant-repository.js'
import { toMerchantCredentials } from '../merchants/merchant-service.js'
import { ownClockView } from '../simulation/merchant-clock-service.js'
import { archiveTenant, createTenant } from './tenant-service.js'

export function tenantHandlers(ctx: SandboxContext) {
  const clockOf = (tenant: MerchantRow) => ownClockView(ctx, tenant)
  return {
    createTenant: async (req, res) => {
      const body = createTenantBody.parse(req.body)
      // Said in the tenant body's own words; the merchant service would name the admin API's fields.
      if (body.escrowFeeBps !== undefined && body.settlementMode !== 'escrow')
        throw badRequest('escrowFeeBps: only for tenants with settlementMode escrow')
      takeOrRefuse(ctx.rateLimits?.tenantCreation, clientAddressOf(req), 'tenants created from your address')
      const tenant = await createTenant(ctx, {
        name: body.name,
        settlementMode: body.settlementMode,
        escrowFeeBps: body.escrowFeeBps,
        frozenAtMs: body.frozenAt,
      })
      res.status(201).json({
        merchant: { ...toMerchantCredentials(tenant), account: tenant.account_id, escrow_fee_bps: tenant.escrow_fee_bps },
        clock: clockOf(tenant),
      })
    },
    listTenants: async (req, res) => {
      const tenants = await listActiveTenants(ctx.db)
      res.json({
        data: tenants.map((tenant) => ({ id: tenant.id, name: tenant.name, createdAt: toIso(tenant.created_at), clock: clockOf(tenant) })),
        maxTenants: ctx.tenants.maxTenants,
      })
    },
    archiveTenant: async (req, res) => {
      const { id, archivedAtMs } = await archiveTenant(ctx, req.params.id)
      res.json({ id, archivedAt: toIso(archivedAtMs) })
    },
  } satisfies Partial<Handlers>
}
