// GET /payments/{id} answers the JSON it rendered before while the payment's version has not
// moved (sandbox/payments/rendered-payments.ts). Every change must move it: through the API, in
// the background, and by another process writing the same database file.
import { describe, expect, it } from 'vitest'
import type { Payment } from '../../src/client/types.js'
import { queryFromOutside } from '../../harness/outside-db.js'
import { refusal } from '../../harness/refusal.js'
import { sandboxForSuite } from '../../harness/sandbox.js'

describe('reading a payment again', () => {
  const sandbox = sandboxForSuite()
  const order = { amount: { value: 1250, currency: 'USD' }, description: 'Read me twice' }
  const versionOf = async (id: string) =>
    (await queryFromOutside<{ version: number }>(sandbox.dbFile, 'select version from payments where id = ?', [id]))[0]!.version

  it('answers the same bytes while nothing changed, and the new state after each change through the API', async () => {
    const created = await sandbox.direct.payments.create(order)
    const first = await sandbox.direct.payments.get(created.id)
    expect(await sandbox.direct.payments.get(created.id)).toEqual(first)
    expect(await versionOf(created.id)).toBe(0)

    await sandbox.direct.sandbox.pay(created.id, { amount: 500 })
    const underpaid = await sandbox.direct.payments.get(created.id)
    expect(underpaid.status).toBe('underpaid')
    expect(underpaid.amount_paid).toBe(500)
    expect(await versionOf(created.id)).toBeGreaterThan(0)

    const version = await versionOf(created.id)
    await sandbox.direct.payments.acceptUnderpayment(created.id)
    const accepted = await sandbox.direct.payments.get(created.id)
    expect(accepted.status).toBe('paid')
    expect(await versionOf(created.id)).toBeGreaterThan(version)
  })

  it('sees a change another process made to the database', async () => {
    const created = await sandbox.direct.payments.create(order)
    expect((await sandbox.direct.payments.get(created.id)).description).toBe('Read me twice')
    await queryFromOutside(sandbox.dbFile, 'update payments set description = ? where id = ?', ['Changed elsewhere', created.id])
    const read: Payment = await sandbox.direct.payments.get(created.id)
    expect(read.description).toBe('Changed elsewhere')
    expect(await versionOf(created.id)).toBe(1)
  })

  it('keeps a read payment to its merchant', async () => {
    const created = await sandbox.direct.payments.create(order)
    await sandbox.direct.payments.get(created.id)
    expect((await refusal(sandbox.escrow.payments.get(created.id))).statusCode).toBe(404)
  })
})
