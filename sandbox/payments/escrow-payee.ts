// Who may be an escrow order's payee. A refund after the release takes the money back from the
// payee, so a payee that is another merchant's account (or one of the sandbox's own: custody,
// fees, issuer, bridge) would let one merchant move another's money. The merchant's own account
// and customer accounts are fine; an address the ledger does not know fails at the release.
import type { Kysely } from 'kysely'
import type { Database, MerchantRow } from '../db/schema.js'
import { findAccount } from '../ledger/ledger-repository.js'

/** Why `payee` cannot be the merchant's escrow payee, or undefined when it can. */
export async function escrowPayeeRefusal(
  db: Kysely<Database>,
  merchant: Pick<MerchantRow, 'account_id'>,
  payee: string,
): Promise<string | undefined> {
  if (payee === merchant.account_id) return undefined
  const account = await findAccount(db, payee)
  if (account === undefined || account.role === 'customer') return undefined
  const whose = account.role === 'merchant' ? "another merchant's account" : `the sandbox's ${account.role.replace('_', ' ')} account`
  return `${payee} is ${whose}; the payee must be the merchant's own account or a customer's`
}
