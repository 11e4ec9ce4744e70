// What Prism lets through in a request's parameters and the reference server refuses: an empty query value
// (`?starting_after=`; Prism drops empty values before it validates, and no query parameter of the contract
// accepts an empty one), a query parameter the operation does not have (Prism ignores it; refused only where
// the operation documents a 400), a path segment whose percent-encoding does not decode (Prism throws), and an
// Idempotency-Key sent twice (Node joins the two into one value, which the key's pattern takes) or empty.
import { type FieldError, pointerToken } from './conventions.ts';
import type { Operation } from './mock.ts';

function decodes(segment: string): boolean {
  try {
    decodeURIComponent(segment);
    return true;
  } catch {
    return false;
  }
}

/** The parameters of a request to `operation` that must be refused before Prism sees them, each with its pointer. */
export function parameterProblems(
  operation: Operation,
  path: string,
  query: URLSearchParams,
  rawHeaders: string[],
): FieldError[] {
  const problems: FieldError[] = [];
  const keys = rawHeaders.filter((_, i) => i % 2 === 1 && rawHeaders[i - 1]!.toLowerCase() === 'idempotency-key');
  if (keys.length > 1) problems.push({ pointer: '/header/idempotency-key', detail: `is sent ${keys.length} times` });
  // Prism takes an empty header for no header.
  else if (keys[0] === '') problems.push({ pointer: '/header/idempotency-key', detail: 'is empty' });
  const segments = path.split('/');
  for (const [i, template] of operation.path.split('/').entries()) {
    const name = /^\{([^}]+)\}$/.exec(template)?.[1];
    if (!name || decodes(segments[i] ?? '')) continue;
    problems.push({ pointer: `/path/${name}`, detail: 'must be valid percent-encoded UTF-8' });
  }
  const documented = (operation.request?.query ?? []).map((p) => p.name);
  const refusable = operation.responses.some((r) => r.code === '400');
  for (const name of new Set(query.keys())) {
    const pointer = `/query/${pointerToken(name)}`;
    if (!documented.includes(name)) {
      if (refusable) problems.push({ pointer, detail: 'is not a query parameter of this operation' });
    } else if (query.getAll(name).includes('')) problems.push({ pointer, detail: 'must not be empty' });
  }
  return problems;
}
