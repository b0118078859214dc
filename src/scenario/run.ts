// Runs a loaded scenario's steps in order. The first failure stops the run: the steps after it would
// act on a state the scenario did not expect, so they are reported as skipped.
import { randomUUID } from 'node:crypto'
import { PayboxApiError } from '../client/errors.js'
import { PayboxClient } from '../client/paybox-client.js'
import type { CreateMerchantRequest, ErrorBody, SandboxMerchant } from '../client/types.js'
import type { Connection } from '../config/connection.js'
import { businessClock } from '../cli/business-clock.js'
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
  /** The tenant the run made for itself (an isolated run): the scenario's merchant, with its own clock. */
  tenant?: ScenarioTenant
  steps: StepResult[]
  summary: { total: number; passed: number; failed: number; skipped: number }
  durationMs: number
}

/** A tenant an isolated run made; never its keys. */
export interface ScenarioTenant {
  id: string
  name: string
  /** When the run archived it; absent when kept (--keep) or when archiving failed. */
  archivedAt?: string
}

export interface RunScenarioOptions {
  connection: Connection
  /**
   * Run in a fresh tenant with its own clock (on a sandbox that is not the developer's own), and
   * archive it, and any tenant a createMerchant step made, at the end unless `keep`.
   */
  isolation?: { keep: boolean }
  /** The connection's merchant is this tenant (PAYBOX_TENANT_ID): run as it, clock steps move its own clock. */
  connectionTenant?: string
  /** Something the run could not do that does not fail it (a tenant left unarchived). */
  onNotice?: (text: string) => void
  /** The connection's merchant; throws a hint when it has no keys. */
  merchantClient: () => PayboxClient
  /** The connection with the admin token; throws a hint when there is none. */
  adminClient: () => PayboxClient
  /** Called once the merchant (the run's tenant, if it made one) and the receiver are ready, before the first step. */
  onStart?: (tenant?: ScenarioTenant) => void
  /** Called as each step finishes (or is skipped), in order. */
  onStep?: (step: StepResult) => void
}

export async function runScenario(loaded: LoadedScenario, options: RunScenarioOptions): Promise<ScenarioReport> {
  const tenants = new RunTenants(options)
  let report: ScenarioReport
  try {
    report = await runSteps(loaded, options, tenants)
  } catch (error) {
    await tenants.archiveAll()
    throw error
  }
  const archived = await tenants.archiveAll()
  if (report.tenant) report.tenant.archivedAt = archived.get(report.tenant.id)
  return report
}

async function runSteps({ file, scenario }: LoadedScenario, options: RunScenarioOptions, tenants: RunTenants): Promise<ScenarioReport> {
  const started = Date.now()
  const { client, secret, merchant, tenant, clockOwner } = await scenarioMerchant(scenario, options, tenants)
  const receiver = scenario.receiver ? await startScenarioReceiver(secret) : undefined
  try {
    const runtime: ScenarioRuntime = {
      client,
      admin: options.adminClient,
      clock: () => businessClock(options.adminClient(), clockOwner),
      createMerchant: (body) => (options.isolation ? tenants.create(body.name, body) : options.adminClient().sandbox.createMerchant(body)),
      merchant,
      receiver,
      results: {},
      startBalances: new Map(),
    }
    await recordStartBalances(scenario, runtime)
    options.onStart?.(tenant)
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
      ...(tenant === undefined ? {} : { tenant }),
      steps,
      summary: { total: steps.length, passed: count('passed'), failed: count('failed'), skipped: count('skipped') },
      durationMs: Date.now() - started,
    }
  } finally {
    await receiver?.close()
  }
}

/** The tenants an isolated run makes, archived when it ends (unless kept). */
class RunTenants {
  readonly #made: string[] = []

  constructor(private readonly options: RunScenarioOptions) {}

  async create(name: string, merchant: Omit<CreateMerchantRequest, 'name'>): Promise<SandboxMerchant> {
    const created = await this.options.adminClient().sandbox.createTenant({
      name: name.slice(0, 100),
      settlementMode: merchant.settlement_mode,
      ...(merchant.escrow_fee_bps === undefined ? {} : { escrowFeeBps: merchant.escrow_fee_bps }),
    })
    this.#made.push(created.merchant.id)
    return created.merchant
  }

  /** When each was archived; a failure is a notice, not a failed scenario (its steps' verdicts stand). */
  async archiveAll(): Promise<Map<string, string>> {
    const archived = new Map<string, string>()
    if (this.options.isolation === undefined || this.options.isolation.keep) return archived
    for (const id of this.#made.splice(0)) {
      try {
        archived.set(id, (await this.options.adminClient().sandbox.archiveTenant(id)).archivedAt)
      } catch (error) {
        this.options.onNotice?.(`Could not archive tenant ${id}: ${reportError(error).message} (paybox sandbox tenant delete ${id})`)
      }
    }
    return archived
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
    return { ...base, status: 'passed', durationMs: Date.now() - started, result: withoutSecrets(result) }
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

interface ScenarioMerchant {
  client: PayboxClient
  secret: string
  merchant: ScenarioMerchantInfo
  /** Set when the run made a tenant for itself. */
  tenant?: ScenarioTenant
  /** Whose own clock the clock steps move; undefined: the sandbox's. */
  clockOwner?: string
}

/** The merchant the scenario runs as: a fresh tenant (isolated), the connection's, or a fresh one made with the admin token. */
async function scenarioMerchant(scenario: Scenario, options: RunScenarioOptions, tenants: RunTenants): Promise<ScenarioMerchant> {
  const wanted = scenario.merchant ?? 'current'
  const info = ({ id, name, account, settlement_mode }: ScenarioMerchantInfo): ScenarioMerchantInfo => ({
    id,
    name,
    account,
    settlement_mode,
  })
  const clientOf = (keys: { apiKey: string; apiSecret: string }) => new PayboxClient({ ...options.connection, ...keys })
  if (options.isolation) {
    const created = await tenants.create(
      wanted === 'current' ? `Scenario: ${scenario.name}` : (wanted.name ?? `Scenario: ${scenario.name}`),
      {
        settlement_mode: wanted === 'current' ? 'direct' : wanted.create,
        escrow_fee_bps: wanted === 'current' ? undefined : wanted.escrowFeeBps,
      },
    )
    const merchant = info(created)
    return {
      client: clientOf(created),
      secret: created.apiSecret,
      merchant,
      tenant: { id: merchant.id, name: merchant.name },
      clockOwner: merchant.id,
    }
  }
  if (wanted === 'current') {
    const client = options.merchantClient()
    const merchant = info(await client.merchant.get())
    const clockOwner = options.connectionTenant === merchant.id ? merchant.id : undefined
    return { client, secret: options.connection.apiSecret!, merchant, clockOwner }
  }
  const created = await options.adminClient().sandbox.createMerchant({
    name: wanted.name ?? `Scenario: ${scenario.name}`.slice(0, 100),
    settlement_mode: wanted.create,
    escrow_fee_bps: wanted.escrowFeeBps,
  })
  return { client: clientOf(created), secret: created.apiSecret, merchant: info(created) }
}

/** The report goes to CI logs: a created merchant's secret stays out of it (later steps still refer to it). */
function withoutSecrets(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(withoutSecrets)
  if (value === null || typeof value !== 'object') return value
  return Object.fromEntries(Object.entries(value).flatMap(([key, inner]) => (SECRET_FIELDS.has(key) ? [] : [[key, withoutSecrets(inner)]])))
}

const SECRET_FIELDS = new Set(['apiSecret', 'secret'])

/** changedBy compares with the balance before the first step. */
async function recordStartBalances(scenario: Scenario, runtime: ScenarioRuntime): Promise<void> {
  for (const step of scenario.steps) {
    const args = step.expectBalance
    if (args?.changedBy === undefined) continue
    const asset = balanceAsset(args)
    if (!runtime.startBalances.has(asset)) runtime.startBalances.set(asset, await readBalance(runtime, asset))
  }
}
