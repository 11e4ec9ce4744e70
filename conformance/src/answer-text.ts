// How failure messages name what came back, so that "expected X, got Y" never prints the same X and Y: a
// status with its problem code, or what the answer has instead of one; a value with its type showing; a
// header that is missing as missing.

interface Answer {
  status: number;
  headers: Record<string, string>;
  text: string;
  json?: unknown;
}

const excerpt = (text: string, max = 60) => JSON.stringify(text.length > max ? `${text.slice(0, max)}…` : text);

/** What the body holds instead of a problem code: `no code in its JSON body`, `a text/html body "…"`, `an empty body`. */
function instead(answer: Answer): string {
  if (answer.json !== undefined) return `no code in its JSON body ${excerpt(JSON.stringify(answer.json))}`;
  if (answer.text === '') return 'an empty body, not a problem';
  const type = (answer.headers['content-type'] ?? '').split(';')[0]!.trim();
  return `${type ? `a ${type}` : 'a'} body ${excerpt(answer.text)}, not a problem`;
}

/**
 * The answer as messages name it: `405 method_not_allowed`, or for a refusal without a problem code what it
 * has instead (`405 with an empty body, not a problem`).
 */
export function answered(answer: Answer): string {
  const code = (answer.json as { code?: unknown } | undefined)?.code;
  // A code of the contract's shape as it is; any other string quoted, so that it cannot break the line.
  if (typeof code === 'string') return `${answer.status} ${/^[\w.-]+$/.test(code) ? code : JSON.stringify(code)}`;
  if (code !== undefined) return `${answer.status} with code ${JSON.stringify(code)}`;
  return answer.status >= 400 ? `${answer.status} with ${instead(answer)}` : String(answer.status);
}

/** A value as messages show it: strings quoted (so "53" and 53 differ), a missing one as `missing`. */
export function shown(value: unknown): string {
  if (value === undefined) return 'missing';
  return typeof value === 'string' ? JSON.stringify(value) : (JSON.stringify(value) ?? String(value));
}

/** What is wrong with an `Allow` header that must name exactly `documented` (HEAD and OPTIONS are let be), or undefined. */
export function allowProblem(header: string | undefined, documented: readonly string[]): string | undefined {
  if (header === undefined) return `Allow is missing; it must name ${documented.join(', ')}`;
  const named = header
    .split(',')
    .map((m) => m.trim().toUpperCase())
    .filter((m) => m && m !== 'HEAD' && m !== 'OPTIONS');
  const missing = documented.filter((m) => !named.includes(m));
  const extra = [...new Set(named.filter((m) => !documented.includes(m)))];
  const repeated = [...new Set(named.filter((m, i) => named.indexOf(m) !== i))];
  const wrong = [
    ...(missing.length ? [`${missing.join(', ')} missing`] : []),
    ...(extra.length ? [`${extra.join(', ')} not documented for the path`] : []),
    ...(repeated.length ? [`${repeated.join(', ')} named twice`] : []),
  ];
  return wrong.length
    ? `Allow is "${header}": ${wrong.join('; ')} (the path documents ${documented.join(', ')})`
    : undefined;
}
