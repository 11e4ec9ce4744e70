// The run as text: a heading, one line per check as it ends (passed / failed / skipped with its reason),
// the parts a profile left out and other notes beneath it, each failure with the request and response that
// broke it (the first few per check), and the closing line `N passed, N failed, N skipped`.
import type { CheckResult, Report } from '../types.ts';
import { exchangeLines, seconds } from './exchange-text.ts';

export const maxFailuresShown = 5;

export function heading(options: { baseUrl: string; profile: string; seed: number; runs: number }): string {
  return `jes-conformance: ${options.baseUrl} (profile ${options.profile}; fast-check seed ${options.seed}, ${options.runs} cases per target)`;
}

export function resultText(result: CheckResult): string {
  const operations = result.operations.includes('*') ? 'every operation' : result.operations.join(', ');
  if (result.status === 'skipped') return `skipped  ${result.name}: ${result.reason}`;
  const lines = [`${result.status.padEnd(7)}  ${result.name} [${operations}] (${seconds(result.ms)}, ${result.requests} requests${result.failures.length ? `, ${result.failures.length} failure${result.failures.length > 1 ? 's' : ''}` : ''})`];
  for (const note of result.notes) lines.push(`           · ${note}`);
  for (const failure of result.failures.slice(0, maxFailuresShown)) {
    lines.push(`           ✗ ${failure.message}`);
    if (failure.exchange) lines.push(...exchangeLines(failure.exchange, 400).map((line) => `               ${line}`));
  }
  if (result.failures.length > maxFailuresShown) lines.push(`           … and ${result.failures.length - maxFailuresShown} more (--report writes them all)`);
  return lines.join('\n');
}

export function closingLine(report: Pick<Report, 'passed' | 'failed' | 'skipped'>): string {
  return `${report.passed} passed, ${report.failed} failed, ${report.skipped} skipped`;
}
