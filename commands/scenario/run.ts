import fs from 'node:fs'
import path from 'node:path'
import { Args, Flags, type Interfaces } from '@oclif/core'
import { ApiCommand } from '../../src/cli/base-command.js'
import { TENANT_ENV_VAR } from '../../src/cli/business-clock.js'
import { UserError } from '../../src/user-error.js'
import type { ScenarioReport } from '../../src/scenario/run.js'

export default class ScenarioRun extends ApiCommand<typeof ScenarioRun> {
  static override args = {
    file: Args.string({ description: 'Scenario file (.yaml, .yml or .json)', required: true }),
  }

  static override summary = 'Run a scenario file of API calls, ledger events, clock moves and expectations'
  static override description =
    'Runs the steps in order against the sandbox, printing one line per step, and stops at the first failure (the ' +
    'steps after it are reported skipped). Exits 0 when every step passed, 1 when one failed, 2 when the file is ' +
    'not a valid scenario (with file:line:col). The format is scenarios/scenario.schema.json; see docs/scenarios.md. ' +
    'On a sandbox that is not your own (started with --shared, or a replica on PostgreSQL), or with --isolated, it runs in a ' +
    'fresh tenant with its own clock, so parallel runs do not see each other, and archives the tenant at the end unless --keep.'

  static override examples = [
    '<%= config.bin %> <%= command.id %> scenarios/paid.yaml',
    '<%= config.bin %> <%= command.id %> scenarios/refund.yaml --junit reports/refund.xml',
    '<%= config.bin %> <%= command.id %> my-flow.json --json',
    '<%= config.bin %> <%= command.id %> scenarios/expired.yaml --isolated --base-url https://sandbox.ci.example',
  ]

  static override flags = {
    junit: Flags.string({ description: 'Also write the results as JUnit XML to this file' }),
    isolated: Flags.boolean({
      description:
        'Run in a fresh tenant with its own clock, archived at the end (default: on a shared sandbox, a replica, or as a tenant; --no-isolated: never)',
      allowNo: true,
    }),
    keep: Flags.boolean({ description: "Keep the run's tenant instead of archiving it, to look at what it left" }),
  }

  public async run(): Promise<ScenarioReport> {
    const { args, flags } = this
    // The scenario engine loads yaml and zod: only this command pays for them.
    const { loadScenarioFile } = await import('../../src/scenario/load.js')
    const { runScenario } = await import('../../src/scenario/run.js')
    const { renderScenarioHeader, renderStep, renderSummary } = await import('../../src/scenario/render.js')
    const loaded = loadScenarioFile(args.file)
    const connection = this.connection()
    // A shell that sourced a tenant's keys is a parallel job on a shared sandbox, wherever that runs.
    const tenantOfShell = process.env[TENANT_ENV_VAR] || undefined
    const isolated = flags.isolated ?? (tenantOfShell !== undefined || (await this.sandboxIsShared(connection)))
    if (flags.keep && !isolated) {
      throw new UserError('--keep keeps the tenant of an isolated run, and this run is not one', 'add --isolated, or leave --keep out')
    }
    const report = await runScenario(loaded, {
      connection,
      isolation: isolated ? { keep: flags.keep === true } : undefined,
      connectionTenant: tenantOfShell,
      onNotice: (text) => this.notice(text),
      onStart: (tenant) => this.print(renderScenarioHeader(loaded.scenario.name, args.file, tenant)),
      merchantClient: () => this.client(connection),
      adminClient: () => this.adminClient(connection),
      onStep: (step) => this.print(renderStep(step)),
    })
    if (flags.junit !== undefined) await this.writeJunit(flags.junit, report)
    this.print(renderSummary(report))
    if (!report.passed) process.exitCode = 1
    return report
  }

  /** Whether the sandbox says it is not a developer's own (--shared, or a replica): GET /health tells, wherever it runs. */
  private async sandboxIsShared(connection: ReturnType<typeof this.connection>): Promise<boolean> {
    const { sandbox } = await this.adminOrMerchantClient(connection).sandbox.health()
    return sandbox.shared || sandbox.replicated
  }

  protected override async catch(error: Interfaces.CommandError): Promise<void> {
    await super.catch(error)
    // An invalid scenario file is not a failed scenario: CI can tell them apart.
    const exitCode = (error as { exitCode?: unknown }).exitCode
    if (error instanceof UserError && exitCode === 2) process.exitCode = 2
  }

  private async writeJunit(file: string, report: ScenarioReport): Promise<void> {
    const { junitXml } = await import('../../src/scenario/junit.js')
    try {
      // As every test runner does: reports/ need not exist in a fresh clone.
      fs.mkdirSync(path.dirname(file), { recursive: true })
      fs.writeFileSync(file, junitXml(report))
    } catch (error) {
      throw new UserError(`Cannot write the JUnit report to ${file} (${(error as NodeJS.ErrnoException).code ?? String(error)})`)
    }
  }
}
