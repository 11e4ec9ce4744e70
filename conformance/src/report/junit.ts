// The run as JUnit XML (one testsuite, one testcase per check; a skip carries its reason, a failure every
// message with its request and response), for CI systems that show test reports.
import type { Report } from '../types.ts';
import { exchangeLines } from './exchange-text.ts';

const escape = (text: string) =>
  text.replace(/[&<>"]/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;' })[c]!).replace(/[\u0000-\u0008\u000b\u000c\u000e-\u001f]/g, '');

export function junitXml(report: Report): string {
  const seconds = (ms: number) => (ms / 1000).toFixed(3);
  const cases = report.results.map((r) => {
    const open = `    <testcase classname="jes-conformance.${report.profile}" name="${escape(r.name)}" time="${seconds(r.ms)}">`;
    const body: string[] = [`      <properties><property name="operations" value="${escape(r.operations.join(','))}"/></properties>`];
    if (r.status === 'skipped') body.push(`      <skipped message="${escape(r.reason ?? '')}"/>`);
    if (r.status === 'failed') {
      const details = r.failures.map((f) => [f.message, ...(f.exchange ? exchangeLines(f.exchange).map((l) => `  ${l}`) : [])].join('\n')).join('\n\n');
      body.push(`      <failure message="${escape(r.failures[0]?.message ?? 'failed')}" type="${escape(r.name)}">${escape(details)}</failure>`);
    }
    if (r.notes.length) body.push(`      <system-out>${escape(r.notes.join('\n'))}</system-out>`);
    return [open, ...body, '    </testcase>'].join('\n');
  });
  const counts = `tests="${report.results.length}" failures="${report.failed}" skipped="${report.skipped}" errors="0" time="${seconds(report.ms)}"`;
  return [
    '<?xml version="1.0" encoding="UTF-8"?>',
    `<testsuites name="jes-conformance" ${counts}>`,
    `  <testsuite name="jes-conformance ${escape(report.baseUrl)} (${report.profile})" ${counts}>`,
    `    <properties><property name="seed" value="${report.seed}"/><property name="runs" value="${report.runs}"/></properties>`,
    ...cases,
    '  </testsuite>',
    '</testsuites>',
    '',
  ].join('\n');
}
