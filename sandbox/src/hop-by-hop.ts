// The headers of one hop (RFC 9110 §7.6.1), which a proxy does not pass on: the fixed ones and those a
// Connection header names. Proxy-Authorization and Proxy-Authenticate are for the proxy itself, not the origin.
const fixed = [
  'connection',
  'proxy-connection',
  'keep-alive',
  'te',
  'transfer-encoding',
  'upgrade',
  'proxy-authorization',
  'proxy-authenticate',
];

/** The header names (lower case) not to pass on, given the message's Connection header. */
export function hopByHop(connection: string | undefined): Set<string> {
  const named = (connection ?? '')
    .split(',')
    .map((name) => name.trim().toLowerCase())
    .filter(Boolean);
  return new Set([...fixed, ...named]);
}

/** Raw headers (names and values alternating, as node's rawHeaders) but for those of the hop and those in `also`. */
export function endToEnd(rawHeaders: readonly string[], connection: string | undefined, also: string[] = []): string[] {
  const dropped = hopByHop(connection);
  for (const name of also) dropped.add(name);
  const kept: string[] = [];
  for (let i = 0; i < rawHeaders.length; i += 2)
    if (!dropped.has(rawHeaders[i]!.toLowerCase())) kept.push(rawHeaders[i]!, rawHeaders[i + 1]!);
  return kept;
}
