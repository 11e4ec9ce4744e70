// The run as a markdown report: the summary table (check, operations, result), then every failure with its
// request and response, and what each skip and note says.
import type { Report } from '../types.ts';
import { closingLine } from './console.ts';
import { exchangeLines, seconds } from './exchange-text.ts';

const cell = (text: string) => text.replaceAll('|', '\\|').replaceAll('\n', ' ');

export function markdownReport(report: Report): string {
  const lines = [
    `# Conformance report: ${report.baseUrl}`,
    '',
    `Profile \`${report.profile}\`, fast-check seed ${report.seed} with ${report.runs} cases per target, ${seconds(report.ms)}. **${closingLine(report)}.**`,
    '',
    '| Check | Operations | Result | Detail |',
    '|---|---|---|---|',
  ];
  for (const r of report.results) {
    const detail = r.status === 'skipped' ? r.reason ?? '' : r.status === 'failed' ? `${r.failures.length} failure(s): ${r.failures[0]?.message ?? ''}` : `${r.requests} requests, ${seconds(r.ms)}`;
    lines.push(`| \`${r.name}\` | ${cell(r.operations.join(', '))} | ${r.status} | ${cell(detail)} |`);
  }
  const failed = report.results.filter((r) => r.status === 'failed');
  if (failed.length) lines.push('', '## Failures');
  for (const r of failed) {
    lines.push('', `### \`${r.name}\``, '', r.description, '');
    for (const failure of r.failures) {
      lines.push(`- ${failure.message}`);
      if (failure.exchange) lines.push('', '  ```', ...exchangeLines(failure.exchange).map((l) => `  ${l}`), '  ```', '');
    }
  }
  const noted = report.results.filter((r) => r.notes.length);
  if (noted.length) lines.push('', '## Notes', '');
  for (const r of noted) for (const note of r.notes) lines.push(`- \`${r.name}\`: ${note}`);
  return `${lines.join('\n')}\n`;
}
