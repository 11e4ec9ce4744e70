// The run as GitHub Actions workflow commands, which the runner turns into annotations on the run's page: an
// `::error` per failure (titled by its check, with its request and the lines that send it again), a `::warning`
// when the deployment may implement another contract version and when the run used deprecated operations, an
// `::error` when the deployment stopped answering. Values are escaped as GitHub's toolkit escapes them (`%`, CR and
// LF in the message; those and `:` and `,` in properties). The markdown report goes to the job's summary
// ($GITHUB_STEP_SUMMARY) besides.
import { deprecatedUsed } from '../coverage.ts';
import type { CheckResult, Coverage, Report, Versions } from '../types.ts';
import { deprecatedText, type Reproduce } from './console.ts';

const escapeData = (text: string) => text.replaceAll('%', '%25').replaceAll('\r', '%0D').replaceAll('\n', '%0A');

const escapeProperty = (text: string) => escapeData(text).replaceAll(':', '%3A').replaceAll(',', '%2C');

/** `::error title=lifecycle::message`: one workflow command. */
export function workflowCommand(
  command: 'error' | 'warning' | 'notice',
  message: string,
  properties: Record<string, string> = {},
): string {
  const props = Object.entries(properties)
    .map(([name, value]) => `${name}=${escapeProperty(value)}`)
    .join(',');
  return `::${command}${props ? ` ${props}` : ''}::${escapeData(message)}`;
}

/** An `::error` per failure of the check: its message, its request and what it got, and the lines that send it again. */
export function failureAnnotations(result: CheckResult, reproduce?: Reproduce): string[] {
  return result.failures.map((failure) => {
    const lines = [failure.message];
    const exchange = failure.exchange;
    if (exchange) {
      const answer = exchange.response ? `${exchange.response.status} (${exchange.response.ms} ms)` : 'no response';
      lines.push(`${exchange.request.method} ${exchange.request.url} → ${answer}`);
      // Each annotation is read alone: it sets the token it needs itself.
      if (reproduce) lines.push(...reproduce(exchange, new Set()));
    }
    return workflowCommand('error', lines.join('\n'), { title: result.name });
  });
}

/** A `::warning` when the deployment may implement another contract version than the run holds it to. */
export function versionsAnnotation(versions: Versions): string | undefined {
  return versions.warning && workflowCommand('warning', versions.warning, { title: 'contract version' });
}

/** A `::warning` naming the deprecated operations the run used, when it used any. */
export function deprecatedAnnotation(coverage: Coverage): string | undefined {
  const used = deprecatedUsed(coverage);
  return used?.length
    ? workflowCommand('warning', `deprecated operations used: ${deprecatedText(used)}`, {
        title: 'deprecated operations',
      })
    : undefined;
}

/** An `::error` when the deployment stopped answering (the run's checks after it are errors). */
export function unreachableAnnotation(report: Report): string | undefined {
  return report.unreachable && workflowCommand('error', report.unreachable.message, { title: 'unreachable' });
}
