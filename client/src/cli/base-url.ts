// The service's URL as a user gives it (--base-url, $JES_BASE_URL): a bare `host[:port]` means http://, and a
// URL fetch cannot use is a usage error saying what is wrong, instead of a connection failure.
import { usageError } from './errors.ts';

const withScheme = /^[a-z][a-z\d+.-]*:\/\//i;
/** `localhost:3000`, `127.0.0.1`, `[::1]:3000/jes`: a host, an optional port, an optional path. */
const bareHost = /^(\[[\da-f:.]+\]|[^\s:/?#@[\]]+)(:\d*)?([/?#]|$)/i;

/** `value` as an http(s) URL without a trailing slash; `source` names where it came from in the error. */
export function serviceUrl(value: string, source: string): string {
  const given = value.trim();
  const wrong = (what: string) => usageError(`${source} ${JSON.stringify(value)} ${what}`);
  const expected = 'expected http://host:port, https://host or host:port';
  if (given === '') throw wrong(`is empty: ${expected}`);
  if (/\s/.test(given)) throw wrong('contains white space');
  if (!withScheme.test(given) && !bareHost.test(given)) throw wrong(`is not a URL: ${expected}`);
  let url: URL;
  try {
    url = new URL(withScheme.test(given) ? given : `http://${given}`);
  } catch {
    const port = /^(?:[^/]*\/\/)?(?:[^@/]*@)?(?:\[[^\]]*\]|[^:/]*):(\d+)(?:[/?#]|$)/.exec(given)?.[1];
    if (port !== undefined && Number(port) > 65535) throw wrong(`has the port ${port}: expected 1 to 65535`);
    throw wrong(`is not a URL: ${expected}`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:')
    throw wrong(`has the scheme ${url.protocol.slice(0, -1)}: expected http or https`);
  if (url.username || url.password) throw wrong('carries a user name or password: log in with jes login instead');
  if (url.search || url.hash) throw wrong("has a query or a fragment: give the service's root URL");
  return url.href.replace(/\/+$/, '');
}
