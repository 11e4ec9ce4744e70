// The run as a markdown report: the versions (the contract's, the deployment's, a warning when they may differ),
// the deprecated operations the run used (when the contract deprecates any), the summary table (check,
// operations, result), then every failure with its request, response and a command that sends it again, what each
// skip and note says, and the coverage of the contract's operations. A deployment that stopped answering is said
// at the top, its checks as errors.
import { deprecatedUsed } from '../coverage.ts';
import type { Report } from '../types.ts';
import { closingLine, deprecatedText, operationsText, type Reproduce, versionsText } from './console.ts';
import { exchangeLines, seconds } from './exchange-text.ts';

const cell = (text: string) => text.replaceAll('|', '\\|').replaceAll('\n', ' ');

function coverageTable(report: Report): string[] {
  const lines = [
    '',
    '## Coverage',
    '',
    '| Operation | Requests | Documented statuses seen | Never provoked | Undocumented statuses |',
    '|---|---|---|---|---|',
  ];
  for (const op of report.coverage.operations) {
    const never = op.documented.filter((s) => !op.seen.includes(s));
    lines.push(
      `| \`${op.operationId}\` ${op.label} | ${op.requests} | ${op.seen.join(', ') || '–'} | ${never.join(', ') || '–'} | ${op.undocumented.join(', ') || '–'} |`,
    );
  }
  const { elsewhere } = report.coverage;
  if (elsewhere.requests)
    lines.push(
      '',
      `And ${elsewhere.requests} requests to methods and paths the contract lacks, answered ${elsewhere.statuses.join(', ')}.`,
    );
  return lines;
}

export function markdownReport(report: Report, reproduce?: Reproduce): string {
  const deprecated = deprecatedUsed(report.coverage);
  const lines = [
    `# Conformance report: ${report.baseUrl}`,
    '',
    `Profile \`${report.profile}\`, fast-check seed ${report.seed} with ${report.runs} cases per target${operationsText(report.operations)}, ${seconds(report.ms)}. **${closingLine(report)}.**`,
    '',
    `Versions: ${versionsText(report.versions)}.`,
    ...(report.versions.warning ? ['', `**Warning:** ${report.versions.warning}.`] : []),
    ...(deprecated ? ['', `Deprecated operations used: ${deprecatedText(deprecated)}.`] : []),
    ...(report.unreachable
      ? ['', `**The run stopped: ${report.unreachable.message}.** Its checks are errors, not failures.`]
      : []),
    '',
    '| Check | Operations | Result | Detail |',
    '|---|---|---|---|',
  ];
  for (const r of report.results) {
    const detail =
      r.status === 'skipped' || r.status === 'error'
        ? (r.reason ?? '')
        : r.status === 'failed'
          ? `${r.failures.length} failure(s): ${r.failures[0]?.message ?? ''}`
          : `${r.requests} requests, ${seconds(r.ms)}`;
    lines.push(`| \`${r.name}\` | ${cell(r.operations.join(', '))} | ${r.status} | ${cell(detail)} |`);
  }
  const failed = report.results.filter((r) => r.failures.length);
  if (failed.length) lines.push('', '## Failures');
  if (failed.length && reproduce)
    lines.push(
      '',
      'Each request is followed by a command that sends it again (bash or zsh); the first that needs a token sets it first.',
    );
  const given = new Set<string>();
  for (const r of failed) {
    lines.push('', `### \`${r.name}\``, '', r.description, '');
    for (const failure of r.failures) {
      lines.push(`- ${failure.message}`);
      if (!failure.exchange) continue;
      lines.push('', '  ```', ...exchangeLines(failure.exchange).map((l) => `  ${l}`), '  ```', '');
      if (reproduce)
        lines.push(
          '  ```sh',
          ...reproduce(failure.exchange, given).map((l) => `  ${l.replace(/^Reproduce with: /, '')}`),
          '  ```',
          '',
        );
    }
  }
  const noted = report.results.filter((r) => r.notes.length);
  if (noted.length) lines.push('', '## Notes', '');
  for (const r of noted) for (const note of r.notes) lines.push(`- \`${r.name}\`: ${note}`);
  lines.push(...coverageTable(report));
  return `${lines.join('\n')}\n`;
}
