// Why the ledger refused a transaction, in Stellar's own result codes (the strings Horizon puts
// in extras.result_codes), so clients written against Stellar read them unchanged.

export type TransactionResultCode =
  | 'tx_failed'
  | 'tx_too_early'
  | 'tx_too_late'
  | 'tx_missing_operation'
  | 'tx_bad_seq'
  | 'tx_bad_auth'
  | 'tx_bad_auth_extra'
  | 'tx_insufficient_balance'
  | 'tx_no_account'
  | 'tx_insufficient_fee'
  | 'tx_malformed'
  | 'tx_not_supported'

export type OperationResultCode =
  | 'op_success'
  | 'op_malformed'
  | 'op_underfunded'
  | 'op_no_destination'
  | 'op_no_trust'
  | 'op_src_no_trust'
  | 'op_line_full'
  | 'op_no_source_account'
  | 'op_bad_auth'
  | 'op_not_supported'

/** Found when stellar-core applies the transaction, not when it validates it: such a transaction is included as failed. */
export const APPLY_TIME_FAILURES: ReadonlySet<OperationResultCode> = new Set([
  'op_underfunded',
  'op_no_destination',
  'op_no_trust',
  'op_src_no_trust',
  'op_line_full',
])

export class LedgerError extends Error {
  /** `included`: the envelope of a transaction Stellar would include as failed, not yet written (see recordFailed). */
  constructor(
    readonly code: TransactionResultCode,
    message: string,
    readonly operationCodes?: OperationResultCode[],
    readonly included?: { envelopeXdr: string; hash: string },
  ) {
    super(message)
    this.name = 'LedgerError'
  }
}

/** The ledger's books do not balance: a bug, never the caller's fault. */
export class LedgerInvariantError extends Error {
  constructor(readonly violations: string[]) {
    super(`Ledger invariants violated: ${violations.join('; ')}`)
    this.name = 'LedgerInvariantError'
  }
}
