// The business clock's state: how far it has been advanced past the wall clock, kept in the
// database so a restart resumes at the same business time, and the work that falls due when
// time moves.
import type { Kysely } from 'kysely'
import type { SandboxContext } from '../context.js'
import type { Database } from '../db/schema.js'
import { failDueEscrows } from '../escrow/escrow-service.js'
import { markOverdueInvoices } from '../invoices/invoice-sync.js'
import { expireDuePayments } from '../payments/payment-expiry.js'
import { readState, writeState } from '../state/sandbox-state.js'

export async function readAdvancedMs(db: Kysely<Database>): Promise<number> {
  return Number((await readState(db, 'clock_advanced_ms')) ?? '0')
}

/** Moves business time forward by `ms`, then processes everything that came due. */
export async function advanceClock(ctx: SandboxContext, ms: number): Promise<DueWorkReport> {
  await ctx.db.transaction().execute(async (trx) => {
    await writeState(trx, 'clock_advanced_ms', String((await readAdvancedMs(trx)) + ms))
    ctx.clock.advance(ms)
  })
  return processDueWork(ctx)
}

export interface DueWorkReport {
  expiredPayments: number
  overdueInvoices: number
  failedEscrows: number
}

/** Everything time-based that is due at the current business time. */
export async function processDueWork(ctx: SandboxContext): Promise<DueWorkReport> {
  return {
    expiredPayments: await expireDuePayments(ctx),
    overdueInvoices: await markOverdueInvoices(ctx),
    failedEscrows: await failDueEscrows(ctx),
  }
}
