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
