// Runs a loaded scenario's steps in order. The first failure stops the run: the steps after it would
// act on a state the scenario did not expect, so they are reported as skipped.
import { randomUUID } from 'node:crypto'
import { PayboxApiError } from '../client/errors.js'
import { PayboxClient } from '../client/paybox-client.js'
import type { ErrorBody } from '../client/types.js'
import type { Connection } from '../config/connection.js'
import { reportError } from '../cli/errors.js'
import { balanceAsset, readBalance } from './expectations.js'
import { interpolate, ScenarioReferenceError, type ReferenceScope } from './interpolate.js'
import type { LoadedScenario } from './load.js'
import { startScenarioReceiver } from './receiver.js'
import { StepFailure, type ScenarioMerchantInfo, type ScenarioRuntime } from './runtime.js'
import { actionOf, type Scenario, type ScenarioStep, type StepAction } from './schema.js'
import { STEP_HANDLERS } from './steps.js'

export type StepStatus = 'passed' | 'failed' | 'skipped'

export interface StepResult {
  /** 1-based position in the file. */
  index: number
  id?: string
  name: string
  action: StepAction
  status: StepStatus
  /** Not set for a skipped step. */
  durationMs?: number
  /** What the step returned (the resource, the value checked); passed steps only. */
  result?: unknown
  error?: string
}

export interface ScenarioReport {
  file: string
  name: string
  passed: boolean
  /** Whom the scenario ran as. */
  merchant: ScenarioMerchantInfo
  steps: StepResult[]
  summary: { total: number; passed: number; failed: number; skipped: number }
  durationMs: number
}

export interface RunScenarioOptions {
  connection: Connection
  /** The connection's merchant; throws a hint when it has no keys. */
  merchantClient: () => PayboxClient
  /** The connection with the admin token; throws a hint when there is none. */
  adminClient: () => PayboxClient
  /** Called once the merchant and the receiver are ready, before the first step. */
  onStart?: () => void
  /** Called as each step finishes (or is skipped), in order. */
  onStep?: (step: StepResult) => void
}

export async function runScenario({ file, scenario }: LoadedScenario, options: RunScenarioOptions): Promise<ScenarioReport> {
  const started = Date.now()
  const { client, secret, merchant } = await scenarioMerchant(scenario, options)
  const receiver = scenario.receiver ? await startScenarioReceiver(secret) : undefined
  try {
    const runtime: ScenarioRuntime = { client, admin: options.adminClient, merchant, receiver, results: {}, startBalances: new Map() }
    await recordStartBalances(scenario, runtime)
    options.onStart?.()
    const scope: ReferenceScope = {
      steps: runtime.results,
      receiver: receiver && { url: receiver.url },
      merchant,
      run: { id: randomUUID() },
    }
    const steps: StepResult[] = []
    let failed = false
    for (const [position, step] of scenario.steps.entries()) {
      const result: StepResult = failed ? skipped(step, position) : await runStep(step, position, runtime, scope)
      failed ||= result.status === 'failed'
      steps.push(result)
      options.onStep?.(result)
    }
    const count = (status: StepStatus) => steps.filter((step) => step.status === status).length
    return {
      file,
      name: scenario.name,
      passed: !failed,
      merchant,
      steps,
      summary: { total: steps.length, passed: count('passed'), failed: count('failed'), skipped: count('skipped') },
      durationMs: Date.now() - started,
    }
  } finally {
    await receiver?.close()
  }
}

async function runStep(step: ScenarioStep, position: number, runtime: ScenarioRuntime, scope: ReferenceScope): Promise<StepResult> {
  const action = actionOf(step)
  const base = { index: position + 1, id: step.id, name: stepName(step, action), action }
  const started = Date.now()
  try {
    const args = interpolate(step[action], scope)
    // Named by what it acts on: `pay pt_…`, not `pay ${steps.payment.id}`.
    base.name = stepName(step, action, args)
    const handler = STEP_HANDLERS[action] as (args: unknown, runtime: ScenarioRuntime) => Promise<unknown>
    const result = step.expectError ? await refusal(step.expectError, () => handler(args, runtime)) : await handler(args, runtime)
    if (step.id !== undefined) runtime.results[step.id] = result
    return { ...base, status: 'passed', durationMs: Date.now() - started, result }
  } catch (error) {
    return { ...base, status: 'failed', durationMs: Date.now() - started, error: failureMessage(error) }
  }
}

/** For expectError: the API's refusal, as the error body, or a StepFailure when it was not refused so. */
async function refusal(expected: NonNullable<ScenarioStep['expectError']>, act: () => Promise<unknown>): Promise<ErrorBody> {
  const wanted = `a refusal${expected.status ? ` with ${expected.status}` : ''}`
  try {
    await act()
  } catch (error) {
    if (!(error instanceof PayboxApiError)) throw error
    const body = { statusCode: error.statusCode, reason: error.reason, message: error.message }
    if (expected.status !== undefined && error.statusCode !== expected.status) {
      throw new StepFailure(`expected ${wanted}, got ${reportError(error).message}`)
    }
    if (expected.matches !== undefined && !new RegExp(expected.matches).test(error.message)) {
      throw new StepFailure(`expected ${wanted} whose message matches /${expected.matches}/, got ${reportError(error).message}`)
    }
    return body
  }
  throw new StepFailure(`expected ${wanted}, but the call succeeded`)
}

const skipped = (step: ScenarioStep, position: number): StepResult => {
  const action = actionOf(step)
  return { index: position + 1, id: step.id, name: stepName(step, action), action, status: 'skipped' }
}

/** Expectations and references say why themselves; API and CLI errors as the CLI prints them. */
function failureMessage(error: unknown): string {
  if (error instanceof StepFailure || error instanceof ScenarioReferenceError) return error.message
  return reportError(error).message
}

/** The step's name, or its action with the argument that identifies it (as written until its references are resolved). */
function stepName(step: ScenarioStep, action: StepAction, resolved: unknown = step[action]): string {
  if (step.name !== undefined) return step.name
  const args = resolved as Record<string, unknown>
  const key = ['payment', 'invoice', 'quote', 'refund', 'escrowOrder', 'step', 'by', 'asset'].find((name) => typeof args[name] === 'string')
  return key === undefined ? action : `${action} ${String(args[key])}`
}

/** The merchant the scenario runs as: the connection's, or a fresh one made with the admin token. */
async function scenarioMerchant(
  scenario: Scenario,
  options: RunScenarioOptions,
): Promise<{ client: PayboxClient; secret: string; merchant: ScenarioMerchantInfo }> {
  const wanted = scenario.merchant ?? 'current'
  if (wanted === 'current') {
    const client = options.merchantClient()
    const { id, name, account, settlement_mode } = await client.merchant.get()
    return { client, secret: options.connection.apiSecret!, merchant: { id, name, account, settlement_mode } }
  }
  const created = await options.adminClient().sandbox.createMerchant({
    name: wanted.name ?? `Scenario: ${scenario.name}`.slice(0, 100),
    settlement_mode: wanted.create,
    escrow_fee_bps: wanted.escrowFeeBps,
  })
  const client = new PayboxClient({ ...options.connection, apiKey: created.apiKey, apiSecret: created.apiSecret })
  const { id, name, account, settlement_mode } = created
  return { client, secret: created.apiSecret, merchant: { id, name, account, settlement_mode } }
}

/** changedBy compares with the balance before the first step. */
async function recordStartBalances(scenario: Scenario, runtime: ScenarioRuntime): Promise<void> {
  for (const step of scenario.steps) {
    const args = step.expectBalance
    if (args?.changedBy === undefined) continue
    const asset = balanceAsset(args)
    if (!runtime.startBalances.has(asset)) runtime.startBalances.set(asset, await readBalance(runtime, asset))
  }
}
