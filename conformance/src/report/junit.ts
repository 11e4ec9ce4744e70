// The run as JUnit XML (one testsuite, one testcase per check; a skip carries its reason, a failure every
// message with its request, response and a command that sends it again, an error (the deployment stopped
// answering) its reason and what the check had found before), for CI systems that show test reports. The
// testsuite's properties hold the run's seed and cases, the contract versions (the suite's, the deployment's,
// the warning when they may differ) and, when the contract deprecates any operation, those the run used.
import { deprecatedUsed } from '../coverage.ts';
import type { CheckResult, Report } from '../types.ts';
import type { Reproduce } from './console.ts';
import { exchangeLines } from './exchange-text.ts';

const escape = (text: string) =>
  text
    .replace(/[&<>"]/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;' })[c]!)
    .replace(/[\u0000-\u0008\u000b\u000c\u000e-\u001f]/g, '');

/** Every failure with its exchange and (each on its own, a CI shows one at a time) the lines that reproduce it. */
function failureDetails(result: CheckResult, reproduce: Reproduce | undefined): string {
  return result.failures
    .map((f) => {
      if (!f.exchange) return f.message;
      return [
        f.message,
        ...exchangeLines(f.exchange).map((l) => `  ${l}`),
        ...(reproduce ? reproduce(f.exchange, new Set()).map((l) => `  ${l}`) : []),
      ].join('\n');
    })
    .join('\n\n');
}

export function junitXml(report: Report, reproduce?: Reproduce): string {
  const seconds = (ms: number) => (ms / 1000).toFixed(3);
  const cases = report.results.map((r) => {
    const open = `    <testcase classname="jes-conformance.${report.profile}" name="${escape(r.name)}" time="${seconds(r.ms)}">`;
    const body: string[] = [
      `      <properties><property name="operations" value="${escape(r.operations.join(','))}"/>${r.module ? `<property name="module" value="${escape(r.module)}"/>` : ''}</properties>`,
    ];
    if (r.status === 'skipped') body.push(`      <skipped message="${escape(r.reason ?? '')}"/>`);
    if (r.status === 'failed')
      body.push(
        `      <failure message="${escape(r.failures[0]?.message ?? 'failed')}" type="${escape(r.name)}">${escape(failureDetails(r, reproduce))}</failure>`,
      );
    if (r.status === 'error') {
      const found = r.failures.length
        ? `Found before the deployment stopped answering:\n\n${failureDetails(r, reproduce)}`
        : '';
      body.push(
        `      <error message="${escape(r.reason ?? 'error')}" type="unreachable">${escape([report.unreachable?.message ?? '', found].filter(Boolean).join('\n\n'))}</error>`,
      );
    }
    if (r.notes.length) body.push(`      <system-out>${escape(r.notes.join('\n'))}</system-out>`);
    return [open, ...body, '    </testcase>'].join('\n');
  });
  const { versions } = report;
  const deprecated = deprecatedUsed(report.coverage);
  // Those undefined are left out (the deployment said no version, the contract deprecates nothing).
  const properties = Object.entries({
    seed: String(report.seed),
    runs: String(report.runs),
    operations: report.operations?.join(','),
    contract_version: versions.contract,
    deployment_contract_version: versions.deployment.contractVersion,
    deployment_version: versions.deployment.version,
    versions_warning: versions.warning,
    deprecated_operations_used: deprecated?.map((op) => op.operationId).join(','),
  }).flatMap(([name, value]) => (value === undefined ? [] : [`<property name="${name}" value="${escape(value)}"/>`]));
  const counts = `tests="${report.results.length}" failures="${report.failed}" skipped="${report.skipped}" errors="${report.errors}" time="${seconds(report.ms)}"`;
  return [
    '<?xml version="1.0" encoding="UTF-8"?>',
    `<testsuites name="jes-conformance" ${counts}>`,
    `  <testsuite name="jes-conformance ${escape(report.baseUrl)} (${report.profile})" ${counts}>`,
    `    <properties>${properties.join('')}</properties>`,
    ...cases,
    '  </testsuite>',
    '</testsuites>',
    '',
  ].join('\n');
}
