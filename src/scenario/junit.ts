// A scenario report as JUnit XML for CI dashboards, a <testcase> per step. A few lines of writing with
// proper escaping need no XML library.
import type { ScenarioReport, StepResult } from './run.js'

/** Characters XML 1.0 cannot hold at all, even escaped. */
const NOT_XML = /[^\t\n\r\u0020-\uD7FF\uE000-\uFFFD\u{10000}-\u{10FFFF}]/gu

/** Text safe inside an attribute value or an element. */
export function escapeXml(text: string): string {
  return (
    text
      .replace(NOT_XML, '\uFFFD')
      .replace(/&/g, '&amp;')
      .replace(/</g, '&lt;')
      .replace(/>/g, '&gt;')
      .replace(/"/g, '&quot;')
      .replace(/'/g, '&apos;')
      // Attribute values normalise raw newlines to spaces: keep them as character references.
      .replace(/\n/g, '&#10;')
      .replace(/\r/g, '&#13;')
      .replace(/\t/g, '&#9;')
  )
}

const seconds = (milliseconds: number | undefined): string => ((milliseconds ?? 0) / 1000).toFixed(3)

const attributes = (entries: Record<string, string | number>): string =>
  Object.entries(entries)
    .map(([name, value]) => ` ${name}="${escapeXml(String(value))}"`)
    .join('')

function testcase(report: ScenarioReport, step: StepResult): string {
  const open = `    <testcase${attributes({ name: `${step.index} ${step.name}`, classname: report.file, time: seconds(step.durationMs) })}`
  if (step.status === 'passed') return `${open}/>`
  const inner =
    step.status === 'skipped'
      ? '<skipped message="an earlier step failed"/>'
      : `<failure${attributes({ message: step.error ?? 'failed', type: step.action })}>${escapeXml(step.error ?? '')}</failure>`
  return `${open}>\n      ${inner}\n    </testcase>`
}

/** An isolated run names its tenant (never its keys), so a CI log leads to what the run left. */
function tenantProperties({ tenant }: ScenarioReport): string[] {
  if (tenant === undefined) return []
  const property = (name: string, value: string) => `      <property${attributes({ name, value })}/>`
  return [
    '    <properties>',
    property('paybox.tenant.id', tenant.id),
    property('paybox.tenant.name', tenant.name),
    ...(tenant.archivedAt === undefined ? [] : [property('paybox.tenant.archivedAt', tenant.archivedAt)]),
    '    </properties>',
  ]
}

export function junitXml(report: ScenarioReport, timestamp: Date = new Date()): string {
  const counts = { tests: report.summary.total, failures: report.summary.failed, errors: 0, skipped: report.summary.skipped }
  const suite = attributes({
    name: report.name,
    ...counts,
    time: seconds(report.durationMs),
    timestamp: timestamp.toISOString().replace(/\.\d{3}Z$/, 'Z'),
    file: report.file,
  })
  return [
    '<?xml version="1.0" encoding="UTF-8"?>',
    `<testsuites${attributes({ name: 'paybox scenarios', ...counts, time: seconds(report.durationMs) })}>`,
    `  <testsuite${suite}>`,
    ...tenantProperties(report),
    ...report.steps.map((step) => testcase(report, step)),
    '  </testsuite>',
    '</testsuites>',
    '',
  ].join('\n')
}
