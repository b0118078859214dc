// The result_xdr Horizon sends with a transaction, for transactions in a ledger (success, or
// included as failed) and for refusals (nothing charged).
import { xdr } from '@stellar/stellar-base'
import type { OperationResultCode, TransactionResultCode } from '../ledger/ledger-errors.js'

const TRANSACTION_RESULTS: Record<Exclude<TransactionResultCode, 'tx_failed'>, () => xdr.TransactionResultResult> = {
  tx_too_early: () => xdr.TransactionResultResult.txTooEarly(),
  tx_too_late: () => xdr.TransactionResultResult.txTooLate(),
  tx_missing_operation: () => xdr.TransactionResultResult.txMissingOperation(),
  tx_bad_seq: () => xdr.TransactionResultResult.txBadSeq(),
  tx_bad_auth: () => xdr.TransactionResultResult.txBadAuth(),
  tx_bad_auth_extra: () => xdr.TransactionResultResult.txBadAuthExtra(),
  tx_insufficient_balance: () => xdr.TransactionResultResult.txInsufficientBalance(),
  tx_no_account: () => xdr.TransactionResultResult.txNoAccount(),
  tx_insufficient_fee: () => xdr.TransactionResultResult.txInsufficientFee(),
  tx_malformed: () => xdr.TransactionResultResult.txMalformed(),
  tx_not_supported: () => xdr.TransactionResultResult.txNotSupported(),
}

const payment = (result: xdr.PaymentResult) => xdr.OperationResult.opInner(xdr.OperationResultTr.payment(result))

const OPERATION_RESULTS: Record<OperationResultCode, () => xdr.OperationResult> = {
  op_success: () => payment(xdr.PaymentResult.paymentSuccess()),
  op_malformed: () => payment(xdr.PaymentResult.paymentMalformed()),
  op_underfunded: () => payment(xdr.PaymentResult.paymentUnderfunded()),
  op_no_destination: () => payment(xdr.PaymentResult.paymentNoDestination()),
  op_no_trust: () => payment(xdr.PaymentResult.paymentNoTrust()),
  op_src_no_trust: () => payment(xdr.PaymentResult.paymentSrcNoTrust()),
  op_line_full: () => payment(xdr.PaymentResult.paymentLineFull()),
  // These fail before the operation's own code runs: results of the operation frame, not of the payment.
  op_no_source_account: () => xdr.OperationResult.opNoAccount(),
  op_bad_auth: () => xdr.OperationResult.opBadAuth(),
  op_not_supported: () => xdr.OperationResult.opNotSupported(),
}

function transactionResult(feeCharged: bigint, result: xdr.TransactionResultResult): string {
  return new xdr.TransactionResult({
    feeCharged: xdr.Int64.fromString(feeCharged.toString()),
    result,
    ext: new xdr.TransactionResultExt(0),
  }).toXDR('base64')
}

export function appliedResultXdr(feeCharged: bigint, operationCount: number, failedResults: OperationResultCode[] | null): string {
  if (failedResults) return failureResultXdr('tx_failed', failedResults, feeCharged)
  const results = Array.from({ length: operationCount }, OPERATION_RESULTS.op_success)
  return transactionResult(feeCharged, xdr.TransactionResultResult.txSuccess(results))
}

/** Refused (feeCharged 0; with tx_failed, the operations up to the one that failed), or included as failed (its fee). */
export function failureResultXdr(code: TransactionResultCode, operationCodes: OperationResultCode[] = [], feeCharged = 0n): string {
  const result =
    code === 'tx_failed'
      ? xdr.TransactionResultResult.txFailed(operationCodes.map((op) => OPERATION_RESULTS[op]()))
      : TRANSACTION_RESULTS[code]()
  return transactionResult(feeCharged, result)
}
