// How a scenario run looks in the terminal: one line per step as it finishes, then a summary.
import { chalk } from '../cli/output.js'
import type { ScenarioReport, ScenarioTenant, StepResult } from './run.js'

export function renderStep(step: StepResult): string {
  if (step.status === 'passed') return `${chalk.green('✔')} ${step.index} ${step.name} ${chalk.gray(`(${step.durationMs} ms)`)}`
  if (step.status === 'failed') return `${chalk.red('✖')} ${step.index} ${step.name}: ${step.error}`
  return `${chalk.gray('-')} ${step.index} ${step.name} ${chalk.gray('(skipped)')}`
}

export function renderScenarioHeader(name: string, file: string, tenant?: ScenarioTenant): string {
  const header = chalk.bold(`${name}`) + chalk.gray(` (${file})`)
  return tenant === undefined ? header : `${header}\n${chalk.gray(`in tenant ${tenant.id}, with its own clock`)}`
}

export function renderSummary(report: ScenarioReport): string {
  const { passed, failed, skipped, total } = report.summary
  const parts = [
    failed > 0 ? chalk.red(`${failed} failed`) : undefined,
    chalk.green(`${passed} passed`),
    skipped > 0 ? `${skipped} skipped` : undefined,
  ]
  const verdict = report.passed ? chalk.green('Scenario passed') : chalk.red('Scenario failed')
  const line = `${verdict}: ${parts.filter(Boolean).join(', ')} of ${total} steps (${(report.durationMs / 1000).toFixed(1)} s)`
  const { tenant } = report
  if (tenant === undefined) return line
  const fate =
    tenant.archivedAt === undefined
      ? `Tenant ${tenant.id} kept; archive it with: paybox sandbox tenant delete ${tenant.id}`
      : `Tenant ${tenant.id} archived`
  return `${line}\n${chalk.gray(fate)}`
}
