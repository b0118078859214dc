// The text memo of a submitted envelope, read before the ledger applies it, so that the payment
// it names can be locked first (the lock order of docs/postgres.md: a payment, then the ledger).
import { FeeBumpTransaction, TransactionBuilder } from '@stellar/stellar-base'
import { memoColumns } from './ledger-mappers.js'

/** The envelope's MEMO_TEXT, or undefined when it has none or is not one the ledger accepts (it refuses it then). */
export function textMemoOf(envelopeXdr: string, networkPassphrase: string): string | undefined {
  let tx: ReturnType<typeof TransactionBuilder.fromXDR>
  try {
    tx = TransactionBuilder.fromXDR(envelopeXdr, networkPassphrase)
  } catch {
    return undefined
  }
  if (tx instanceof FeeBumpTransaction) return undefined
  const { memo_type: type, memo } = memoColumns(tx.memo)
  return type === 'text' && memo !== null ? memo : undefined
}
