// Which hosts a webhook may call: never one a public service should not reach from inside (loopback, private,
// link-local such as the cloud metadata 169.254.169.254, unique-local, shared CGNAT, multicast, unspecified,
// reserved, and those written as IPv4-mapped IPv6) nor the name `localhost`, unless the operator's allow list
// (JES_WEBHOOK_ALLOW_HOSTS) names the host. Checked at PUT /webhook for literal addresses and at each attempt on
// the addresses a name resolves to (attempt.ts dials only an address checked here).
import { BlockList, isIP } from 'node:net';

/** The ranges refused, each with the words that name it in an error's detail. */
const refusedRanges: readonly [kind: string, family: 'ipv4' | 'ipv6', network: string, prefix: number][] = [
  ['an unspecified address', 'ipv4', '0.0.0.0', 8],
  ['a private address', 'ipv4', '10.0.0.0', 8],
  ['a shared (CGNAT) address', 'ipv4', '100.64.0.0', 10],
  ['a loopback address', 'ipv4', '127.0.0.0', 8],
  ['a link-local address', 'ipv4', '169.254.0.0', 16],
  ['a private address', 'ipv4', '172.16.0.0', 12],
  ['a reserved address', 'ipv4', '192.0.0.0', 24],
  ['a private address', 'ipv4', '192.168.0.0', 16],
  ['a reserved address', 'ipv4', '198.18.0.0', 15],
  ['a multicast address', 'ipv4', '224.0.0.0', 4],
  ['a reserved address', 'ipv4', '240.0.0.0', 4],
  ['an unspecified address', 'ipv6', '::', 128],
  ['a loopback address', 'ipv6', '::1', 128],
  ['a link-local address', 'ipv6', 'fe80::', 10],
  ['a site-local address', 'ipv6', 'fec0::', 10],
  ['a unique-local address', 'ipv6', 'fc00::', 7],
  ['a multicast address', 'ipv6', 'ff00::', 8],
];

const lists = refusedRanges.map(([kind, family, network, prefix]) => {
  const list = new BlockList();
  list.addSubnet(network, prefix, family);
  return { kind, list, family };
});

/** An IPv6 address's IPv4 when it is IPv4-mapped (::ffff:a.b.c.d) or IPv4-compatible/NAT64-embedded, else null. */
function embeddedIPv4(address: string): string | null {
  // The WHATWG URL parser writes any IPv6 spelling in one compressed, lower-case form.
  const canonical = new URL(`http://[${address}]/`).hostname.slice(1, -1);
  const match = /^(?:::ffff:|64:ff9b::)([0-9a-f]{1,4}):([0-9a-f]{1,4})$/.exec(canonical);
  if (!match) return null;
  const high = Number.parseInt(match[1] ?? '0', 16);
  const low = Number.parseInt(match[2] ?? '0', 16);
  return [high >> 8, high & 255, low >> 8, low & 255].join('.');
}

/** What makes an address one the service does not call (`a loopback address`), or null for a public one. */
export function refusedAddressKind(address: string): string | null {
  const family = isIP(address);
  if (family === 0) return 'not an address';
  if (family === 6) {
    const v4 = embeddedIPv4(address);
    if (v4 !== null) return refusedAddressKind(v4);
  }
  const type = family === 4 ? 'ipv4' : 'ipv6';
  for (const { kind, list, family: listFamily } of lists)
    if (listFamily === type && list.check(address, type)) return kind;
  return null;
}

/** The allow list's form of a host: lower case, an IPv6 address without brackets and compressed. */
export function normalHost(host: string): string {
  const bare = host.startsWith('[') && host.endsWith(']') ? host.slice(1, -1) : host;
  const lower = bare.toLowerCase().replace(/\.$/, '');
  return isIP(lower) === 6 ? new URL(`http://[${lower}]/`).hostname.slice(1, -1) : lower;
}

/** The operator's allow list (JES_WEBHOOK_ALLOW_HOSTS, comma-separated host names or addresses) as a set. */
export function parseAllowHosts(text: string | undefined): ReadonlySet<string> {
  const hosts = (text ?? '')
    .split(',')
    .map((host) => host.trim())
    .filter((host) => host !== '')
    .map(normalHost);
  return new Set(hosts);
}

function isLocalhostName(host: string): boolean {
  return host === 'localhost' || host.endsWith('.localhost');
}

/**
 * Why a URL's host is refused before any lookup (`169.254.169.254 is a link-local address`), or null: a literal
 * address is checked now, a name other than `localhost` only at each attempt, on what it resolves to then.
 */
export function hostRefusal(host: string, allowHosts: ReadonlySet<string>): string | null {
  const normal = normalHost(host);
  if (allowHosts.has(normal)) return null;
  if (isLocalhostName(normal)) return `${normal} is a loopback host name`;
  if (isIP(normal) === 0) return null;
  const kind = refusedAddressKind(normal);
  return kind === null ? null : `${normal} is ${kind}`;
}

/** Whether an attempt to `host` may dial `address` (one `host` resolved to). */
export function addressAllowed(host: string, address: string, allowHosts: ReadonlySet<string>): boolean {
  return (
    allowHosts.has(normalHost(host)) || allowHosts.has(normalHost(address)) || refusedAddressKind(address) === null
  );
}

/** Why a webhook URL is refused: `detail` for the problem, `reason` for its error at pointer /url. */
export interface WebhookUrlRefusal {
  detail: string;
  reason: string;
}

/**
 * Why a webhook URL is refused (422 webhook_url_refused), or null when the service will call it: `http` or
 * `https`, no user or password, and a host the guard allows.
 */
export function webhookUrlRefusal(url: string, allowHosts: ReadonlySet<string>): WebhookUrlRefusal | null {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return { detail: 'The webhook URL cannot be parsed.', reason: 'Not a URL.' };
  }
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') {
    const reason = `The scheme ${parsed.protocol.slice(0, -1)} is not http or https.`;
    return { detail: `The webhook URL is refused: ${reason}`, reason };
  }
  if (parsed.username !== '' || parsed.password !== '') {
    const reason = 'A URL with a user or password is not accepted.';
    return { detail: `The webhook URL is refused: ${reason}`, reason };
  }
  const refusal = hostRefusal(parsed.hostname, allowHosts);
  if (refusal === null) return null;
  return {
    detail: `The webhook's host ${refusal}; the service calls only public addresses.`,
    reason: `${refusal}.`,
  };
}
