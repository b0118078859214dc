// A customer's payment that fails in the ledger through the CLI and scenario steps, as on
// Stellar: `paybox payments pay --from` a wallet without a USDC trustline, and a scenario's pay
// step from an underfunded wallet, are refused with the result code, while the failed
// transaction stays in the ledger with its fee charged and its sequence number used.
import fs from 'node:fs'
import path from 'node:path'
import { describe, expect, it } from 'vitest'
import type { LedgerTransaction, SandboxWallet } from '../../src/client/types.js'
import type { ScenarioReport } from '../../src/scenario/run.js'
import { merchantEnv, runCli, runCliJson } from '../../harness/cli.js'
import { sandboxForSuite, temporaryDir } from '../../harness/sandbox.js'

describe('payments that fail in the ledger, from the CLI', () => {
  const sandbox = sandboxForSuite()

  const latestOf = async (wallet: SandboxWallet): Promise<LedgerTransaction> =>
    (await sandbox.admin.ledger.transactions({ account: wallet.publicKey, order: 'desc', limit: 1 })).items[0]!
  const sequenceOf = async (wallet: SandboxWallet) =>
    (await sandbox.admin.ledger.accounts({ role: 'customer' })).items.find((a) => a.publicKey === wallet.publicKey)!

  it('payments pay --from a wallet without a USDC trustline: one line naming op_src_no_trust; the failed transaction is recorded', async () => {
    const wallet = await sandbox.admin.sandbox.createWallet({ trustline: false })
    const payment = await sandbox.direct.payments.create({ amount: { value: 700, currency: 'USD' }, description: 'No trustline' })
    const { exitCode, stderr } = await runCli(['payments', 'pay', payment.id, '--from', wallet.publicKey], merchantEnv(sandbox))
    expect(exitCode).not.toBe(0)
    expect(stderr).toContain('op_src_no_trust')
    expect(await latestOf(wallet)).toMatchObject({
      successful: false,
      operationResults: ['op_src_no_trust'],
      feeCharged: '100',
      payment: payment.id,
    })
    expect((await sequenceOf(wallet)).balances.XLM).toBe('9999.9999900')
    expect((await sandbox.direct.payments.get(payment.id)).status).toBe('open')
  })

  it("a scenario's pay step from an underfunded wallet is refused with op_underfunded, and the ledger keeps the failed transaction", async () => {
    const wallet = await sandbox.admin.sandbox.createWallet({ usdc: '1' })
    const file = path.join(temporaryDir('paybox-scenario-'), 'underfunded.yaml')
    fs.writeFileSync(
      file,
      `name: Underfunded
steps:
  - id: payment
    createPayment: { amount: { value: 5000, currency: USD }, description: Underfunded }
  - pay: { payment: "\${steps.payment.id}", from: ${wallet.publicKey} }
    expectError: { status: 400, matches: "op_underfunded" }
  - expect: { payment: "\${steps.payment.id}", field: status, equals: open }
`,
    )
    const { json, exitCode } = await runCliJson<ScenarioReport>(['scenario', 'run', file], merchantEnv(sandbox))
    expect(json.steps.map((step) => step.status)).toEqual(['passed', 'passed', 'passed'])
    expect(exitCode).toBe(0)
    expect(await latestOf(wallet)).toMatchObject({ successful: false, operationResults: ['op_underfunded'], feeCharged: '100' })
  })
})
