// Label values are bounded, whatever a client sends: a label takes only values from a list the server knows (the
// contract's methods, the registries' use cases and solvers, the rate-limit policies), anything else reads `other`.
// A value the code makes itself (a data file's format) is capped at a few distinct values all the same, so that a
// mistake there cannot grow the series without end either.

/** The methods the contract or the outside routes answer; any other method a client sends is `other`. */
const methods = new Set(['GET', 'HEAD', 'POST', 'PUT', 'DELETE', 'PATCH', 'OPTIONS']);

export const methodLabel = (method: string): string => (methods.has(method) ? method : 'other');

/** `value` when it is one of `known`, else `other`. */
export function oneOf(known: Iterable<string>): (value: string) => string {
  const set = new Set(known);
  return (value) => (set.has(value) ? value : 'other');
}

/** The first `most` distinct values as they come, then `other`. */
export function capped(most: number): (value: string) => string {
  const seen = new Set<string>();
  return (value) => {
    if (seen.has(value)) return value;
    if (seen.size >= most) return 'other';
    seen.add(value);
    return value;
  };
}
