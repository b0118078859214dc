// The books of the simulated network: nothing created or lost, whatever was applied.
import type { Kysely } from 'kysely'
import type { Database } from '../db/schema.js'
import { readState } from '../state/sandbox-state.js'
import { LedgerInvariantError } from './ledger-errors.js'
import { supplyRows } from './ledger-repository.js'
import type { SupplyReport } from './ledger-types.js'

/**
 * Asserts no account below zero (but the issuer), USDC circulating = issued, and XLM in accounts plus
 * fees = endowed, as of one instant: the balances and totals are read in one statement.
 */
export async function checkInvariants(db: Kysely<Database>): Promise<SupplyReport> {
  const issuer = await readState(db, 'usdc_issuer')
  const rows = await supplyRows(db)
  const report: SupplyReport = {
    usdc: { issued: 0n, circulating: 0n },
    xlm: { totalCoins: BigInt(rows[0]?.total_coins ?? '0'), inAccounts: 0n, feePool: BigInt(rows[0]?.fee_pool ?? '0') },
  }
  const violations: string[] = []
  for (const row of rows) {
    if (row.public_key === null) continue
    const usdc = BigInt(row.usdc_balance!)
    const xlm = BigInt(row.xlm_balance!)
    if (row.public_key === issuer) {
      if (usdc > 0n) violations.push(`the USDC issuer holds ${usdc} stroops of its own asset`)
      report.usdc.issued = -usdc
    } else {
      if (usdc < 0n) violations.push(`${row.public_key} has a negative USDC balance (${usdc})`)
      report.usdc.circulating += usdc
    }
    if (xlm < 0n) violations.push(`${row.public_key} has a negative XLM balance (${xlm})`)
    report.xlm.inAccounts += xlm
  }
  if (report.usdc.circulating !== report.usdc.issued) {
    violations.push(`USDC in circulation (${report.usdc.circulating}) differs from USDC issued (${report.usdc.issued})`)
  }
  if (report.xlm.inAccounts + report.xlm.feePool !== report.xlm.totalCoins) {
    const { inAccounts, feePool, totalCoins } = report.xlm
    violations.push(`XLM in accounts (${inAccounts}) plus fees (${feePool}) differs from total coins (${totalCoins})`)
  }
  if (violations.length > 0) throw new LedgerInvariantError(violations)
  return report
}
