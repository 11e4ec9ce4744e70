// A replay (jes-conformance replay) as text: a heading naming the recorded run and where it is sent now, one line
// per difference (the entry's index in the HAR, its check, method and path, the kind and what differs), the closing
// line; and as markdown and JUnit (one testcase per check whose requests were sent again, failed by its differences).
import type { ReplayDifference, ReplayReport } from '../har/replay.ts';
import type { RecordedRun } from '../har/har.ts';
import { seconds } from './exchange-text.ts';

export function replayHeading(file: string, recorded: RecordedRun, entries: number, baseUrl: string): string {
  const only = recorded.only?.length ? `, only ${recorded.only.join(', ')}` : '';
  return `jes-conformance replay: ${file} (${entries} requests of a run against ${recorded.baseUrl}: profile ${recorded.profile}, fast-check seed ${recorded.seed}, ${recorded.runs} cases per target${only}, contract ${recorded.contract}) sent to ${baseUrl}`;
}

export function differenceLine(d: ReplayDifference): string {
  return `#${d.entry} ${d.check} ${d.method} ${d.path}: ${d.kind}: ${d.message}`;
}

export function replayClosing(report: ReplayReport): string {
  const sent = `${report.sent} of ${report.entries} requests sent again`;
  if (!report.differences.length) return `${sent}: no difference`;
  const kinds = (['status', 'schema', 'semantics'] as const)
    .map((kind) => [kind, report.differences.filter((d) => d.kind === kind).length] as const)
    .filter(([, n]) => n)
    .map(([kind, n]) => `${n} ${kind}`);
  const entries = new Set(report.differences.map((d) => d.entry)).size;
  return `${sent}: ${entries} differ${entries === 1 ? 's' : ''} (${kinds.join(', ')})`;
}

const cell = (text: string) => text.replaceAll('|', '\\|').replaceAll('\n', ' ');

export function replayMarkdown(file: string, report: ReplayReport): string {
  return [
    `# Replay of ${file}: ${report.baseUrl}`,
    '',
    `${replayHeading(file, report.recorded, report.entries, report.baseUrl)}, ${seconds(report.ms)}. **${replayClosing(report)}.**`,
    ...(report.unreachable ? ['', `**The replay stopped: ${report.unreachable}.**`] : []),
    ...(report.differences.length
      ? [
          '',
          '| Entry | Check | Request | Kind | Difference |',
          '|---|---|---|---|---|',
          ...report.differences.map(
            (d) =>
              `| ${d.entry} | \`${d.check}\` | ${cell(`${d.method} ${d.path}`)} | ${d.kind} | ${cell(d.message)} |`,
          ),
        ]
      : []),
    '',
  ].join('\n');
}

const escape = (text: string) =>
  text
    .replace(/[&<>"]/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;' })[c]!)
    .replace(/[\u0000-\u0008\u000b\u000c\u000e-\u001f]/g, '');

export function replayJunit(file: string, report: ReplayReport): string {
  const failed = report.checks.filter((check) => report.differences.some((d) => d.check === check));
  const counts = `tests="${report.checks.length}" failures="${failed.length}" time="${(report.ms / 1000).toFixed(3)}"`;
  const cases = report.checks.map((check) => {
    const mine = report.differences.filter((d) => d.check === check);
    const open = `    <testcase classname="jes-conformance.replay" name="${escape(check)}">`;
    if (!mine.length) return `${open}</testcase>`;
    const failure = `<failure message="${escape(differenceLine(mine[0]!))}" type="${mine[0]!.kind}">${escape(mine.map(differenceLine).join('\n'))}</failure>`;
    return `${open}\n      ${failure}\n    </testcase>`;
  });
  return [
    '<?xml version="1.0" encoding="UTF-8"?>',
    `<testsuites name="jes-conformance replay" ${counts}>`,
    `  <testsuite name="jes-conformance replay ${escape(file)} ${escape(report.baseUrl)}" ${counts}>`,
    ...cases,
    '  </testsuite>',
    '</testsuites>',
    '',
  ].join('\n');
}
