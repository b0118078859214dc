// Tenants (a merchant for one CI job, with its own business clock) and each merchant's clock
// (docs/clocks.md).
import { z } from 'zod'
import { advanceBody, freezeBody } from '../clock-bodies.js'
import { SETTLEMENT_MODES } from '../enumerations.js'
import { isoDateTime } from '../validation.js'
import * as examples from '../examples.js'
import { advancedClock, dateTimeText, exampleOf, sandboxClock, sandboxMerchant } from '../resources.js'
import { endpoint } from './entry.js'

/** A merchant for one job, with its own clock (frozen at frozenAt when given). */
export const createTenantBody = z.strictObject({
  name: z.string().trim().min(1, { message: 'must not be empty' }).max(100).optional(),
  settlementMode: z.enum(SETTLEMENT_MODES, { message: 'must be direct or escrow' }).optional(),
  /** Default platform fee of its escrow orders, basis points, 0–10000 (escrow tenants only; default 0). */
  escrowFeeBps: z.number().int({ message: 'must be a whole number of basis points' }).min(0).max(10_000).optional(),
  frozenAt: isoDateTime.optional(),
})

/** An admin-token endpoint, in the document's Sandbox section. */
const ADMIN = { security: 'admin', tag: 'Sandbox' } as const

/** The admin token, or the merchant's own key where the sandbox allows it. */
const MERCHANT_CLOCK = {
  security: 'admin-or-digest',
  authReason: 'Unauthorized',
  tag: 'Sandbox',
  pathParams: { id: 'Merchant id' },
  errors: [403, 404],
} as const

export const createdTenant = z
  .object({ merchant: sandboxMerchant, clock: sandboxClock })
  .describe('A tenant: a merchant for one job, its keys, and its own business clock')
  .meta({ example: { merchant: examples.sandboxMerchantExample, clock: examples.sandboxClockExample } })

export const tenant = z
  .object({ id: z.string(), name: z.string(), createdAt: dateTimeText, clock: sandboxClock })
  .describe('An active tenant, without its keys')
  .meta({
    example: {
      id: examples.sandboxMerchantExample.id,
      name: examples.sandboxMerchantExample.name,
      createdAt: examples.sandboxClockExample.now,
      clock: examples.sandboxClockExample,
    },
  })

export const tenantList = z
  .object({
    data: z.array(tenant).describe('Active tenants, oldest first'),
    maxTenants: z.number().int().describe('How many active tenants the sandbox takes'),
  })
  .meta({ example: { data: [exampleOf(tenant)], maxTenants: 1000 } })

export const archivedTenant = z
  .object({ id: z.string(), archivedAt: dateTimeText.describe("On the tenant's clock") })
  .meta({ example: { id: examples.sandboxMerchantExample.id, archivedAt: examples.sandboxClockExample.now } })

export const tenants = {
  /** A merchant for one job: its keys and its own business clock (frozen at `frozenAt` when given). */
  createTenant: endpoint({
    operationId: 'createTenant',
    method: 'post',
    path: '/sandbox/tenants',
    ...ADMIN,
    summary: 'A tenant: a merchant for one job, with its keys and its own business clock',
    description:
      "At most the sandbox's tenant limit are active at once (409 past it); under --shared, creation is rate-limited (docs/clocks.md).",
    errors: [409, 429],
    body: createTenantBody,
    response: createdTenant,
    status: 201,
  }),
  listTenants: endpoint({
    operationId: 'listTenants',
    method: 'get',
    path: '/sandbox/tenants',
    ...ADMIN,
    summary: 'Active tenants and their clocks, without keys',
    errors: [],
    response: tenantList,
  }),
  /** Its keys stop working and its rows leave lists and sweeps; the ledger keeps its transactions. Idempotent. */
  archiveTenant: endpoint({
    operationId: 'archiveTenant',
    method: 'delete',
    path: '/sandbox/tenants/:id',
    ...ADMIN,
    summary: 'Archive a tenant: its keys stop working, its rows leave lists and sweeps; the ledger keeps its transactions',
    pathParams: { id: 'Tenant (merchant) id' },
    errors: [404],
    response: archivedTenant,
  }),
  getMerchantClock: endpoint({
    operationId: 'getMerchantClock',
    method: 'get',
    path: '/sandbox/merchants/:id/clock',
    ...MERCHANT_CLOCK,
    summary: "A merchant's business time",
    response: sandboxClock,
  }),
  advanceMerchantClock: endpoint({
    operationId: 'advanceMerchantClock',
    method: 'post',
    path: '/sandbox/merchants/:id/clock/advance',
    ...MERCHANT_CLOCK,
    summary: "Move a merchant's business time forward and process what falls due for it",
    body: advanceBody,
    response: advancedClock,
  }),
  freezeMerchantClock: endpoint({
    operationId: 'freezeMerchantClock',
    method: 'post',
    path: '/sandbox/merchants/:id/clock/freeze',
    ...MERCHANT_CLOCK,
    summary: "Stop a merchant's business time (at now, or at a later instant)",
    body: freezeBody,
    response: sandboxClock,
  }),
  unfreezeMerchantClock: endpoint({
    operationId: 'unfreezeMerchantClock',
    method: 'post',
    path: '/sandbox/merchants/:id/clock/unfreeze',
    ...MERCHANT_CLOCK,
    summary: "Let a merchant's business time run again",
    response: sandboxClock,
  }),
}

/** This file's bodies by the component name the OpenAPI document gives them. */
export const tenantBodies = { CreateTenantRequest: createTenantBody }

/** The answers declared here, by the component name the OpenAPI document gives them. */
export const tenantAnswers = { CreatedTenant: createdTenant, TenantList: tenantList, ArchivedTenant: archivedTenant }
