// How failures read: each distinct failure once (same operation, status and kind of fault), with how many
// cases showed it, the first case's request and response, and the server's log lines for it.
import type { WireRequest, WireResponse } from './wire.ts';

export interface Failure {
  /** The case's position in the run (fast-check's sample order) and its generator. */
  index: number;
  family: string;
  /** `METHOD /path` of the operation it reaches, if any. */
  where: string;
  /** The target's URL (a run may start it more than once). */
  base: string;
  request: WireRequest;
  response?: WireResponse;
  /** No response: why. */
  error?: string;
  problems: string[];
  /** Log lines of the target that name the request id. */
  log?: string[];
  /** For a process exit: the requests in flight (one of them killed it) and the process's last output. */
  crash?: { suspects: { index: number; family: string; request: WireRequest }[]; output: string };
}

const clip = (text: string, max: number) =>
  text.length > max ? `${text.slice(0, max)}… (${text.length} characters)` : text;
const printable = (text: string) => JSON.stringify(text).slice(1, -1);

/** The kind of a problem found, for grouping: the same fault with other ids, values or pointers is one. */
function kindOf(problem: string): string {
  const kinds: [RegExp, string][] = [
    [/^a server error/, 'a server error'],
    [/^status \d+ is not documented/, 'an undocumented status'],
    [/is not a problem|problem whose body/, 'not a problem'],
    [/^the problem has no|^the problem's status/, 'problem members'],
    [/^code .* is not one/, 'a code the contract does not list'],
    [/X-Request-Id|request_id/, 'the request id'],
    [/^body /, 'a body that breaks its schema'],
    [/header/i, 'headers'],
    [/^Content-Type/, 'the media type'],
  ];
  return (
    kinds.find(([pattern]) => pattern.test(problem))?.[1] ?? problem.replace(/"[^"]*"/g, '"…"').replace(/\d+/g, 'N')
  );
}

/** A signature that groups the same fault on the same operation. */
export function signature(failure: Failure): string {
  if (failure.crash) return `crash: ${/^\w*Error\b.*$/m.exec(failure.crash.output)?.[0] ?? failure.index}`;
  if (failure.problems[0]?.startsWith("Node's HTTP server"))
    return `Node's own ${failure.response?.status} (${failure.family})`;
  const kind = kindOf(failure.problems[0] ?? failure.error ?? '');
  return `${failure.where} → ${failure.response?.status ?? 'no response'}: ${kind === 'a server error' ? `${kind} (${cause(failure)})` : kind}`;
}

/** What a server error says about itself: the message the target logged for the request, or the problem's detail. */
function cause(failure: Failure): string {
  let text = '';
  try {
    text = JSON.parse(failure.log?.[0] ?? '{}').err?.message ?? '';
  } catch {}
  if (!text) {
    try {
      text = JSON.parse(failure.response?.body.toString('utf8') ?? '{}').detail ?? '';
    } catch {}
  }
  return text
    .replace(/"[^"]*"/g, '"…"')
    .replace(/\b([A-Z0-9]{12}|[0-9a-f]{40})\b/g, 'ID')
    .replace(/\d+/g, 'N')
    .slice(0, 120);
}

export function describeRequest(request: WireRequest): string {
  const lines = [`${request.method} ${clip(printable(request.target), 300)}`];
  for (const [name, value] of request.headers) lines.push(`  ${name}: ${clip(printable(value), 160)}`);
  if (request.contentLength !== undefined)
    lines.push(
      `  (Content-Length announced: ${request.contentLength ?? 'none'}, body ${request.body?.length ?? 0} bytes)`,
    );
  if (request.body?.length)
    lines.push(`  body (${request.body.length} bytes): ${clip(printable(request.body.toString('utf8')), 400)}`);
  return lines.join('\n');
}

export function describeResponse(response: WireResponse): string {
  const headers = Object.entries(response.headers).filter(
    ([name]) => !['date', 'etag', 'connection', 'keep-alive'].includes(name),
  );
  return [
    `${response.status}`,
    ...headers.map(([n, v]) => `  ${n}: ${clip(v, 160)}`),
    `  ${clip(printable(response.body.toString('utf8')), 600)}`,
  ].join('\n');
}

/** A curl command that repeats the request (as near as curl can: it may refuse what the raw socket sent). */
export function curl(base: string, request: WireRequest): string {
  const quote = (text: string) => `'${text.replaceAll("'", "'\\''")}'`;
  const parts = [
    'curl -si',
    '-X',
    quote(request.method),
    ...request.headers.flatMap(([n, v]) => ['-H', quote(`${n}: ${v}`)]),
  ];
  if (request.body?.length)
    parts.push('--data-binary', request.body.length > 300 ? '@body.bin' : quote(request.body.toString('latin1')));
  parts.push(quote(base + request.target));
  return clip(parts.join(' '), 1200);
}

/** One paragraph per distinct failure, most frequent first. */
export function formatFailures(target: string, failures: Failure[]): string {
  const groups = new Map<string, Failure[]>();
  for (const failure of failures) groups.set(signature(failure), [...(groups.get(signature(failure)) ?? []), failure]);
  const sorted = [...groups.entries()].sort((a, b) => b[1].length - a[1].length);
  const parts = [`${target}: ${failures.length} failing responses, ${groups.size} distinct failures`];
  for (const [, [first, ...rest]] of sorted) {
    if (first!.crash) {
      parts.push(
        [
          `✗ ${first!.problems[0]} (case ${first!.index}; ${rest.length + 1} such exits); its last output:`,
          `    ${first!.crash.output.replaceAll('\n', '\n    ')}`,
          '  the requests in flight (one of them did it):',
          ...first!.crash.suspects.map(
            (s) => `  → case ${s.index} (${s.family}): ${describeRequest(s.request).replaceAll('\n', '\n      ')}`,
          ),
        ].join('\n'),
      );
      continue;
    }
    parts.push(
      [
        `✗ ${first!.where} → ${first!.response?.status ?? 'no response'} (${rest.length + 1} cases; first: case ${first!.index}, ${first!.family})`,
        ...first!.problems.map((p) => `    - ${p}`),
        `  → ${describeRequest(first!.request).replaceAll('\n', '\n    ')}`,
        first!.response
          ? `  ← ${describeResponse(first!.response).replaceAll('\n', '\n    ')}`
          : `  ← no response: ${first!.error}`,
        ...(first!.log?.length ? ['  server log:', ...first!.log.map((l) => `    ${clip(l, 1500)}`)] : []),
        `  repeat: ${curl(first!.base, first!.request)}`,
      ].join('\n'),
    );
  }
  return parts.join('\n\n');
}
