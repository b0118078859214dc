// `paybox scenario run` in-process against real sandboxes: every shipped scenario passes on a
// fresh sandbox, and a failing one names the step and the reason, skips the rest, exits 1 and
// says so in JUnit XML too.
import fs from 'node:fs'
import path from 'node:path'
import { describe, expect, it } from 'vitest'
import type { Payment } from '../../src/client/types.js'
import type { ScenarioReport } from '../../src/scenario/run.js'
import { expectOneLineFailure, linesOf, merchantEnv, ROOT, runCli, runCliJson } from '../../harness/cli.js'
import { sandboxForSuite, startTestSandbox, temporaryDir } from '../../harness/sandbox.js'
import { parseXml, type XmlElement } from '../../harness/xml.js'

const SCENARIOS = path.join(ROOT, 'scenarios')
const shipped = fs.readdirSync(SCENARIOS).filter((name) => /\.(ya?ml|json)$/.test(name) && !name.endsWith('.schema.json'))

/** Writes a scenario into a fresh folder and returns its path. */
function scenarioFile(text: string, name = 'scenario.yaml'): string {
  const file = path.join(temporaryDir('paybox-scenario-'), name)
  fs.writeFileSync(file, text)
  return file
}

describe('the shipped scenarios', () => {
  it('cover the flows of the spec', () => {
    expect(shipped).toEqual(
      expect.arrayContaining([
        'paid.yaml',
        'underpaid-accepted.yaml',
        'expired.yaml',
        'invoice-paid.yaml',
        'invoice-overdue.yaml',
        'invoice-voided.yaml',
        'escrow-released.yaml',
        'cross-chain-deposit.yaml',
        'refund.yaml',
      ]),
    )
  })

  // A fresh sandbox each, as a CI job would start one.
  it.each(shipped)('%s passes against a fresh sandbox', async (name) => {
    const sandbox = await startTestSandbox()
    try {
      const file = path.join('scenarios', name)
      const { json, exitCode, stderr } = await runCliJson<ScenarioReport>(['scenario', 'run', path.join(ROOT, file)], merchantEnv(sandbox))
      const failures = json.steps
        .filter((step) => step.status !== 'passed')
        .map((step) => `${step.index} ${step.name}: ${step.error ?? step.status}`)
      expect(failures).toEqual([])
      expect(exitCode).toBe(0)
      expect(stderr).toBe('')
      expect(json.passed).toBe(true)
      expect(json.summary).toMatchObject({ failed: 0, skipped: 0, passed: json.steps.length })
    } finally {
      await sandbox.stop()
    }
  })

  it('paid.yaml passes on a sandbox that closes ledgers on a timer, as `paybox sandbox start` does', async () => {
    // Settlement completes only when the ledger closes: the scenario's `within` waits for it.
    const sandbox = await startTestSandbox({ ledgerClose: 200 })
    try {
      const { stdout, exitCode } = await runCli(['scenario', 'run', path.join(ROOT, 'scenarios', 'paid.yaml')], merchantEnv(sandbox))
      expect(exitCode).toBe(0)
      const lines = linesOf(stdout)
      expect(lines[0]).toBe(`A payment paid in full settles to the merchant (${path.join(ROOT, 'scenarios', 'paid.yaml')})`)
      expect(lines.filter((line) => line.startsWith('✔ '))).toHaveLength(8)
      expect(lines).toContainEqual(expect.stringMatching(/^✔ 5 its settlement completes \(\d+ ms\)$/))
      expect(lines.at(-1)).toMatch(/^Scenario passed: 8 passed of 8 steps \(\d+\.\d s\)$/)
    } finally {
      await sandbox.stop()
    }
  })
})

describe('paybox scenario run', () => {
  const sandbox = sandboxForSuite()
  const env = () => merchantEnv(sandbox)

  const broken = `name: A broken expectation
steps:
  - id: payment
    createPayment: { amount: { value: 1000, currency: USD }, description: Broken }
  - name: a customer pays half
    pay: { payment: "\${steps.payment.id}", underpay: true }
  - name: expect payment paid
    expect: { payment: "\${steps.payment.id}", field: status, equals: paid }
  - name: never reached
    acceptUnderpayment: { payment: "\${steps.payment.id}" }
`

  it('stops at a false expectation: names the step and the reason, skips the rest, exits 1', async () => {
    const file = scenarioFile(broken)
    const { stdout, stderr, exitCode, result } = await runCli<ScenarioReport>(['scenario', 'run', file], env())
    expect(exitCode).toBe(1)
    expect(stderr).toBe('')
    const lines = linesOf(stdout)
    expect(lines[1]).toMatch(/^✔ 1 createPayment \(\d+ ms\)$/)
    expect(lines[2]).toMatch(/^✔ 2 a customer pays half \(\d+ ms\)$/)
    expect(lines[3]).toBe('✖ 3 expect payment paid: status was "underpaid", expected "paid"')
    expect(lines[4]).toBe('- 4 never reached (skipped)')
    expect(lines[5]).toMatch(/^Scenario failed: 1 failed, 2 passed, 1 skipped of 4 steps/)
    // The skipped step really did not run: the payment is still underpaid.
    const payment = result!.steps[0]!.result as Payment
    expect((await sandbox.direct.payments.get(payment.id)).status).toBe('underpaid')
  })

  it('reports the same with --json, and writes JUnit XML with the failure', async () => {
    const file = scenarioFile(broken)
    const junit = path.join(path.dirname(file), 'reports.xml')
    const { json, exitCode } = await runCliJson<ScenarioReport>(['scenario', 'run', file, '--junit', junit], env())
    expect(exitCode).toBe(1)
    expect(json.passed).toBe(false)
    expect(json.steps.map((step) => step.status)).toEqual(['passed', 'passed', 'failed', 'skipped'])
    expect(json.steps[2]).toMatchObject({ index: 3, action: 'expect', error: 'status was "underpaid", expected "paid"' })
    expect(json.summary).toEqual({ total: 4, passed: 2, failed: 1, skipped: 1 })

    const root = parseXml(fs.readFileSync(junit, 'utf8'))
    expect(root.name).toBe('testsuites')
    expect(root.attributes).toMatchObject({ tests: '4', failures: '1', skipped: '1' })
    const suites = root.children.filter((child) => child.name === 'testsuite')
    expect(suites).toHaveLength(1)
    expect(suites[0]!.attributes).toMatchObject({ name: 'A broken expectation', tests: '4', failures: '1', skipped: '1', errors: '0' })
    const cases = suites[0]!.children
    expect(cases.map((testcase) => testcase.attributes.name)).toEqual([
      '1 createPayment',
      '2 a customer pays half',
      '3 expect payment paid',
      '4 never reached',
    ])
    const child = (testcase: XmlElement) => testcase.children.map((element) => element.name)
    expect(cases.map(child)).toEqual([[], [], ['failure'], ['skipped']])
    const failure = cases[2]!.children[0]!
    expect(failure.attributes.message).toBe('status was "underpaid", expected "paid"')
    expect(failure.text).toBe('status was "underpaid", expected "paid"')
  })

  it("creates the folder of the JUnit report, as the README's CI one-liner needs in a fresh clone", async () => {
    const file = scenarioFile(broken)
    const junit = path.join(path.dirname(file), 'reports', 'nested', 'broken.xml')
    const { stdout, stderr, exitCode } = await runCli(['scenario', 'run', file, '--junit', junit], env())
    expect(stderr).toBe('')
    expect(exitCode).toBe(1)
    expect(linesOf(stdout).at(-1)).toMatch(/^Scenario failed: 1 failed/)
    expect(parseXml(fs.readFileSync(junit, 'utf8')).attributes).toMatchObject({ tests: '4', failures: '1' })
  })

  it('refuses a scenario with a schema error at its line and column, exiting 2 before running anything', async () => {
    const before = (await sandbox.direct.payments.list({ limit: 1 })).meta.totalItems
    const file = scenarioFile(`name: Bad amount
steps:
  - id: payment
    createPayment:
      amount: { value: 1000, currency: USD }
      description: Fine
  - pay:
      payment: \${steps.payment.id}
      amount: twelve
`)
    expectOneLineFailure(
      await runCli(['scenario', 'run', file], env()),
      `${file}:9:15: steps[1].pay.amount: must be a number or a \${…} reference`,
      2,
    )
    expect((await sandbox.direct.payments.list({ limit: 1 })).meta.totalItems).toBe(before)
  })

  it('names every problem of an invalid file, one line each, exiting 2', async () => {
    const file = scenarioFile(`name: Two problems
steps:
  - advanceClock: { by: soon }
  - pay: { payment: "\${steps.nowhere.id}", amount: twelve }
`)
    const { stdout, stderr, exitCode } = await runCli(['scenario', 'run', file], env())
    expect(exitCode).toBe(2)
    expect(stdout).toBe('')
    expect(stderr).toBe(
      [
        `Error: ${file}:3:25: steps[0].advanceClock.by: must be a duration such as 500ms, 10s, 31m, 2h or 7d`,
        `${file}:4:52: steps[1].pay.amount: must be a number or a \${…} reference`,
        '',
      ].join('\n'),
    )
  })

  it('refuses a reference to a step that does not exist, naming it', async () => {
    const file = scenarioFile(`name: Unknown reference
steps:
  - id: payment
    createPayment: { amount: { value: 1000, currency: USD }, description: Fine }
  - pay: { payment: "\${steps.paymnt.id}" }
`)
    expectOneLineFailure(
      await runCli(['scenario', 'run', file], env()),
      `${file}:5:21: steps[1].pay.payment: \${steps.paymnt.id}: no step has id "paymnt"`,
      2,
    )
  })

  it('labels a step without a name by what its references resolved to', async () => {
    const file = scenarioFile(`name: Labels
steps:
  - id: payment
    createPayment: { amount: { value: 1000, currency: USD }, description: Fine }
  - pay: { payment: "\${steps.payment.id}" }
  - getPayment: { payment: "\${steps.payment.id}" }
`)
    const { stdout, exitCode, result } = await runCli<ScenarioReport>(['scenario', 'run', file], env())
    expect(exitCode).toBe(0)
    const id = (result!.steps[0]!.result as Payment).id
    expect(linesOf(stdout).slice(2, 4)).toEqual([
      expect.stringMatching(new RegExp(`^✔ 2 pay ${id} \\(\\d+ ms\\)$`)),
      expect.stringMatching(new RegExp(`^✔ 3 getPayment ${id} \\(\\d+ ms\\)$`)),
    ])
    expect(result!.steps.map((step) => step.name)).toEqual(['createPayment', `pay ${id}`, `getPayment ${id}`])
  })

  it('fails the step whose reference leads nowhere in an earlier result', async () => {
    const file = scenarioFile(`name: Missing field
steps:
  - id: payment
    createPayment: { amount: { value: 1000, currency: USD }, description: Fine }
  - pay: { payment: "\${steps.payment.paymentId}" }
`)
    const { stdout, exitCode } = await runCli(['scenario', 'run', file], env())
    expect(exitCode).toBe(1)
    expect(linesOf(stdout)[2]).toBe(
      '✖ 2 pay ${steps.payment.paymentId}: ${steps.payment.paymentId}: the result of step "payment" has no paymentId',
    )
  })

  it('runs a JSON scenario file, and reports its errors by line too', async () => {
    const good = scenarioFile(
      JSON.stringify(
        {
          name: 'JSON works',
          steps: [
            { id: 'p', createPayment: { amount: { value: 500, currency: 'EUR' }, description: 'From JSON' } },
            { expect: { payment: '${steps.p.id}', field: 'amount', equals: { value: 500, currency: 'EUR' } } },
          ],
        },
        null,
        2,
      ),
      'flow.json',
    )
    const { json, exitCode } = await runCliJson<ScenarioReport>(['scenario', 'run', good], env())
    expect(exitCode).toBe(0)
    expect(json.steps.map((step) => step.status)).toEqual(['passed', 'passed'])

    const bad = scenarioFile('{\n  "name": "JSON error",\n  "steps": [\n    { "getPayment": { "payment": 42 } }\n  ]\n}\n', 'bad.json')
    expectOneLineFailure(
      await runCli(['scenario', 'run', bad], env()),
      `${bad}:4:34: steps[0].getPayment.payment: expected string, received number`,
      2,
    )
  })

  it('fails an expectError step when the call succeeds or is refused differently', async () => {
    const file = scenarioFile(`name: Refusals
steps:
  - id: payment
    createPayment: { amount: { value: 1000, currency: USD }, description: Refusals }
  - name: expiring an open payment is refused?
    expirePayment: { payment: "\${steps.payment.id}" }
    expectError: { status: 409 }
`)
    const { json, exitCode } = await runCliJson<ScenarioReport>(['scenario', 'run', file], env())
    expect(exitCode).toBe(1)
    expect(json.steps[1]!.error).toBe('expected a refusal with 409, but the call succeeded')

    const wrongStatus = scenarioFile(`name: Refused differently
steps:
  - getPayment: { payment: pt_00000000000000000000000000000000 }
    expectError: { status: 409 }
  - getPayment: { payment: pt_00000000000000000000000000000000 }
    expectError: { status: 404, matches: "^No payment" }
`)
    const second = await runCliJson<ScenarioReport>(['scenario', 'run', wrongStatus], env())
    expect(second.exitCode).toBe(1)
    expect(second.json.steps[0]!.error).toMatch(/^expected a refusal with 409, got 404 Not Found/)
  })

  it('needs the admin token to make a fresh merchant or move the clock, and says which flag to pass', async () => {
    const withoutAdmin = merchantEnv(sandbox, 'direct', { PAYBOX_ADMIN_TOKEN: undefined })
    const fresh = scenarioFile('name: Fresh\nmerchant: { create: escrow }\nsteps:\n  - advanceClock: { by: 1h }\n')
    expectOneLineFailure(
      await runCli(['scenario', 'run', fresh], withoutAdmin),
      `No sandbox admin token for ${sandbox.url} (pass --admin-token, set PAYBOX_ADMIN_TOKEN, or run: paybox login --from-sandbox)`,
    )
    const clock = scenarioFile('name: Clock\nsteps:\n  - advanceClock: { by: 1h }\n')
    const { stdout, exitCode } = await runCli(['scenario', 'run', clock], withoutAdmin)
    expect(exitCode).toBe(1)
    expect(linesOf(stdout)[1]).toBe(
      `✖ 1 advanceClock 1h: No sandbox admin token for ${sandbox.url} (pass --admin-token, set PAYBOX_ADMIN_TOKEN, or run: paybox login --from-sandbox)`,
    )
  })

  it('says which file it cannot read, exiting 2', async () => {
    const missing = path.join(temporaryDir(), 'nope.yaml')
    expectOneLineFailure(await runCli(['scenario', 'run', missing], env()), `${missing}: cannot read the scenario file (ENOENT)`, 2)
  })

  it('fails an expectWebhook clearly, listing the deliveries it saw', async () => {
    const file = scenarioFile(`name: Wrong webhook expectation
receiver: true
steps:
  - id: payment
    createPayment: { amount: { value: 1000, currency: USD }, description: Hooked, webhookUrl: "\${receiver.url}" }
  - pay: { payment: "\${steps.payment.id}", underpay: true }
  - expectWebhook: { payment: "\${steps.payment.id}", event: transaction_updated, status: underpaid }
  - expectWebhook: { payment: "\${steps.payment.id}", event: transaction_failed, within: 200ms }
`)
    const { json, exitCode } = await runCliJson<ScenarioReport>(['scenario', 'run', file], env())
    expect(exitCode).toBe(1)
    expect(json.steps[2]).toMatchObject({ status: 'passed', result: { received: true, data: { status: 'underpaid' } } })
    const id = (json.steps[0]!.result as Payment).id
    expect(json.steps[3]!.error).toBe(
      `no transaction_failed delivery succeeded for ${id} within 200ms; its deliveries: ` +
        'transaction_created open/open success (HTTP 200); transaction_updated underpaid/open success (HTTP 200)',
    )
  })
})
