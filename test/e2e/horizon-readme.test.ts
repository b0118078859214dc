// The README's "Pay with the real Stellar SDK" script, taken from the README as written and run
// with node against a real sandbox: it must stay at most 15 lines and pay the checkout, even
// after the business clock has been moved on (its time bounds come from the sandbox's Date).
import { execFile } from 'node:child_process'
import fs from 'node:fs'
import path from 'node:path'
import { promisify } from 'node:util'
import { Asset, Horizon, Keypair, Operation, TransactionBuilder } from '@stellar/stellar-sdk'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { ROOT } from '../../harness/cli.js'
import { startTestSandbox, temporaryDir, type TestSandbox } from '../../harness/sandbox.js'

const run = promisify(execFile)

/** The first ```js block after the heading, exactly as the README shows it. */
function readmeScript(): string {
  const readme = fs.readFileSync(path.join(ROOT, 'README.md'), 'utf8')
  const section = readme.slice(readme.indexOf('## Pay with the real Stellar SDK'))
  const start = section.indexOf('```js\n')
  const end = section.indexOf('\n```', start + 6)
  if (start < 0 || end < 0) throw new Error('README has no js block under "Pay with the real Stellar SDK"')
  return section.slice(start + '```js\n'.length, end + 1)
}

describe('README: pay a sandbox checkout with the real Stellar SDK', () => {
  let sandbox: TestSandbox
  let script: string

  beforeAll(async () => {
    sandbox = await startTestSandbox()
    // The script lives in its own folder, which sees the project's packages as a user's would.
    const dir = temporaryDir('paybox-readme-')
    fs.symlinkSync(path.join(ROOT, 'node_modules'), path.join(dir, 'node_modules'), 'dir')
    script = path.join(dir, 'pay.mjs')
    fs.writeFileSync(script, readmeScript())
  })
  afterAll(() => sandbox?.stop())

  it('is at most 15 lines', () => {
    const lines = readmeScript().trimEnd().split('\n')
    expect(lines.length).toBeLessThanOrEqual(15)
  })

  it("pays a payment from its qrCode with a wallet's secret: the payment is paid by the transaction it printed", async () => {
    // An hour on: bounds from the local clock would have expired; the script's come from the sandbox.
    await sandbox.admin.sandbox.advanceClock({ seconds: 3600 })
    const wallet = await sandbox.admin.sandbox.createWallet()
    const payment = await sandbox.direct.payments.create({ amount: { value: 1250, currency: 'USD' }, description: 'README' })

    const { stdout } = await run(process.execPath, [script, sandbox.url, payment.qrCode, wallet.secret], { timeout: 20_000 })
    const hash = /^Paid in ([0-9a-f]{64})$/m.exec(stdout)?.[1]
    expect(hash, stdout).toBeDefined()
    const paid = await sandbox.direct.payments.get(payment.id)
    expect(paid).toMatchObject({ status: 'paid', stellarTxId: hash, sender_account: wallet.publicKey })

    // What the script avoids: bounds from the local clock are already past on the moved-on ledger.
    const server = new Horizon.Server(`${sandbox.url}/horizon`, { allowHttp: true })
    const keypair = Keypair.fromSecret(wallet.secret)
    const late = new TransactionBuilder(await server.loadAccount(wallet.publicKey), {
      fee: '100',
      networkPassphrase: sandbox.identity.networkPassphrase,
    })
      .addOperation(Operation.payment({ destination: wallet.publicKey, asset: Asset.native(), amount: '1' }))
      .setTimeout(60)
      .build()
    late.sign(keypair)
    const refused = (await server.submitTransaction(late).catch((error: unknown) => error)) as {
      response?: { data?: { extras?: { result_codes?: unknown } } }
    }
    expect(refused.response?.data?.extras?.result_codes).toEqual({ transaction: 'tx_too_late' })
  })
})
