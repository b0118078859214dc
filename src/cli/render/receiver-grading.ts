// How `paybox webhooks test-receiver` shows its grades: one table row per case, the response
// time against the budget, what the grader cannot see, and a one-line verdict.
import type { CaseResult, GradingReport, SendResult } from '../../webhooks/receiver-grading.js'
import { chalk, table } from '../output.js'

const EXPECTATIONS: Record<CaseResult['expectation'], string> = {
  accept: 'accept',
  reject: 'reject',
  survive: 'no crash',
}

const verdictText = (verdict: 'pass' | 'fail'): string => (verdict === 'pass' ? chalk.green('PASS') : chalk.red('FAIL'))

function resultOf(send: SendResult): string {
  if (send.status === null) return 'no answer'
  return send.status >= 200 && send.status < 300 ? 'accepted' : send.status >= 500 ? 'server error' : 'rejected'
}

const joined = (sends: SendResult[], part: (send: SendResult) => string): string => sends.map(part).join(' → ')

export function renderGradingReport(report: GradingReport): string {
  const rows = report.cases.map((result) => [
    result.title,
    `${EXPECTATIONS[result.expectation]}: ${result.expected}`,
    joined(result.sends, resultOf),
    joined(result.sends, (send) => (send.status === null ? '—' : String(send.status))),
    joined(result.sends, (send) => `${send.durationMs} ms`),
    verdictText(result.verdict),
  ])
  const time = report.responseTime
  const slowest = time.slowest ? `slowest ${time.slowest.durationMs} ms (${time.slowest.caseId})` : 'no answers'
  rows.push([
    'Response time',
    `every answer within ${time.budgetMs / 1000} s`,
    time.timedOut > 0 ? `${time.timedOut} without an answer; ${slowest}` : slowest,
    '',
    '',
    verdictText(time.verdict),
  ])

  const failures = report.cases.filter((result) => result.verdict === 'fail')
  const notes = report.cases
    .filter((result) => result.detail !== null)
    .map((result) => `${result.verdict === 'fail' ? chalk.red('✗') : chalk.yellow('!')} ${result.title}: ${result.detail}`)
  if (time.verdict === 'fail')
    notes.push(`${chalk.red('✗')} Response time: a receiver must answer within ${time.budgetMs / 1000} s (spec 6)`)
  const failed = failures.length + (time.verdict === 'fail' ? 1 : 0)
  const summary = report.passed
    ? chalk.green(`All ${report.cases.length + 1} checks passed for ${report.url}`)
    : chalk.red(`${failed} of ${report.cases.length + 1} checks failed for ${report.url}`)
  return [table(['Case', 'Expected', 'Result', 'HTTP', 'Time', 'Verdict'], rows), ...notes, chalk.gray(report.deduplication), summary].join(
    '\n',
  )
}
