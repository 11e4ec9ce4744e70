// The headers a run sends with every request (`-H 'Name: value'`, JES_CONFORMANCE_HEADERS with one per line, or
// the `headers` option), checked once, and how an exchange records headers: the secrets hidden. A gateway's API
// key is as secret as a token, so every given header is recorded hidden, with Authorization, Cookie and
// Proxy-Authorization; the values as sent stay in sent.ts for the reproductions, which name variables instead.

const fieldName = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;

/** Headers a run may not give: the suite or the connection sets them. */
const notGiven: Record<string, string> = {
  authorization: 'a token goes in --token (token), not in a header',
  host: 'the base URL says the host',
  'content-length': 'the suite sets it on each request',
  'transfer-encoding': 'the suite sets it on each request',
  connection: 'the connection sets it',
  'keep-alive': 'the connection sets it',
  upgrade: 'the connection sets it',
  expect: 'the suite sets it on each request',
  te: 'the connection sets it',
  trailer: 'the connection sets it',
};

/** `name` and `value` checked (a one-line error when either is wrong), the name in lower case. */
function checked(name: string, value: string): [string, string] {
  if (!fieldName.test(name)) throw new Error(`"${name}" is no header name`);
  const lower = name.toLowerCase();
  if (notGiven[lower]) throw new Error(`the header ${name} cannot be given: ${notGiven[lower]}`);
  if (/[\r\n\0]/.test(value)) throw new Error(`the value of the header ${name} holds a line break`);
  if (value.trim() === '') throw new Error(`the header ${name} has no value`);
  return [lower, value.trim()];
}

/** `Name: value` lines (blank lines skipped) as headers: what -H and JES_CONFORMANCE_HEADERS hold. */
export function headerLines(text: string, previous: Record<string, string> = {}): Record<string, string> {
  const headers = { ...previous };
  for (const line of text.split(/\r?\n/)) {
    if (line.trim() === '') continue;
    const colon = line.indexOf(':');
    // The line is not shown: it may be a secret with its colon forgotten.
    if (colon < 0) throw new Error('a header is "Name: value", and one has no colon');
    const [name, value] = checked(line.slice(0, colon).trim(), line.slice(colon + 1));
    headers[name] = value;
  }
  return headers;
}

/** The `headers` option checked, names in lower case (as every header the suite sets). */
export function givenHeaders(headers: Record<string, string> | undefined): Record<string, string> {
  return Object.fromEntries(Object.entries(headers ?? {}).map(([name, value]) => checked(name, value)));
}

/** Recorded hidden whoever sets them. */
const secretHeaders = new Set(['authorization', 'proxy-authorization', 'cookie']);

/** What stands for a hidden value: the scheme of a credential (`Bearer (hidden)`), else `(hidden)`. */
function hidden(name: string, value: string): string {
  const scheme = /^([A-Za-z][\w-]*) +\S/.exec(value)?.[1];
  return name.endsWith('authorization') && scheme ? `${scheme} (hidden)` : '(hidden)';
}

/** The headers as an exchange records them: secrets and the given headers hidden. */
export function recordedHeaders(
  headers: Record<string, string>,
  given: Record<string, string>,
): Record<string, string> {
  return Object.fromEntries(
    Object.entries(headers).map(([name, value]) => [
      name,
      secretHeaders.has(name) || name in given ? hidden(name, value) : value,
    ]),
  );
}
