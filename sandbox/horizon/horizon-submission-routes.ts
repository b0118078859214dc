// Horizon's submission: a signed envelope, applied through the same ledger as every other movement.
import express, { type RequestHandler } from 'express'
import { runTransaction } from '../db/database.js'
import { MAX_BODY_BYTES } from '../http/body.js'
import { LedgerError } from '../ledger/ledger-errors.js'
import type { HorizonScope } from './horizon-listing.js'
import { failedTransactionProblem, HorizonProblem, ledgerProblem } from './horizon-problems.js'
import { submitForm } from './horizon-requests.js'
import { toTransactionRecord } from './horizon-resources.js'
import { findPaymentForChange } from '../payments/payment-repository.js'
import { textMemoOf } from '../ledger/envelope-memo.js'

// Horizon takes the envelope as a form field; parameterLimit keeps a body of many fields cheap to refuse.
const readForm = express.urlencoded({ extended: false, limit: MAX_BODY_BYTES, parameterLimit: 10 })

export function horizonSubmissionHandlers({ ctx, h }: HorizonScope) {
  const submitTransaction: RequestHandler = async (req, res) => {
    if (req.body === undefined) {
      const hasBody = Number(req.get('content-length') ?? 0) > 0 || req.get('transfer-encoding') !== undefined
      if (hasBody) {
        throw new HorizonProblem(
          415,
          'unsupported_media_type',
          'Unsupported Media Type',
          'Submit the envelope as a form: Content-Type application/x-www-form-urlencoded, field tx.',
        )
      }
    }
    const { tx: envelopeXdr } = submitForm.parse(req.body ?? {})
    let applied
    try {
      applied = await runTransaction(ctx.db, async (trx) => {
        // The payment its memo names is locked before the ledger's rows, as every change of a
        // payment is (docs/postgres.md): its receipt is matched once the ledger has applied it.
        const memo = textMemoOf(envelopeXdr, ctx.ledger.networkPassphrase)
        if (memo !== undefined) await findPaymentForChange(trx, { memo })
        return ctx.ledger.submit(trx, envelopeXdr)
      })
    } catch (error) {
      if (error instanceof LedgerError) throw ledgerProblem(error, envelopeXdr)
      throw error
    }
    // Included as failed and committed so (fee charged, sequence used), yet answered 400 as on Horizon.
    if (!applied.successful) throw failedTransactionProblem(applied)
    res.json(toTransactionRecord(h, applied))
  }

  return { submitTransaction: [readForm, submitTransaction] }
}
