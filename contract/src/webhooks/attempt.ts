// One delivery attempt, for the server's sender and the sandbox: a POST with node:http/https that dials only an
// address the guard allowed (the request's `lookup` hands the socket the checked address, so a name cannot
// resolve to a public address for the check and a private one for the connection), answers within 10 s in all,
// never follows a redirect (a 3xx is a failure) and reads at most 64 KiB of the answer.
import type { LookupAddress } from 'node:dns';
import { lookup } from 'node:dns/promises';
import { request as httpRequest, type IncomingMessage } from 'node:http';
import { request as httpsRequest } from 'node:https';
import type { LookupFunction } from 'node:net';
import { addressAllowed, hostRefusal, normalHost } from './address-guard.ts';

/** How an attempt went: `reason` is short and shown to the user as the delivery's `last_error`. */
export type AttemptResult = { delivered: true; status: number } | { delivered: false; reason: string };

export interface AttemptOptions {
  url: string;
  headers: Record<string, string>;
  body: string;
  allowHosts: ReadonlySet<string>;
  /** The whole attempt's limit, connecting included. */
  timeoutMs?: number;
  /** How much of the answer is read before the connection is closed. */
  maxAnswerBytes?: number;
  /** Ends the attempt at once (a stopping server), as `{ delivered: false, reason: 'stopped' }`. */
  signal?: AbortSignal;
  /** Resolves a host name to its addresses; node:dns's lookup by default (a test injects its own names). */
  resolve?: Resolve;
}

export type Resolve = (host: string) => Promise<LookupAddress[]>;

const systemResolve: Resolve = (host) => lookup(host, { all: true });

export const attemptTimeoutMs = 10_000;
export const maxAnswerBytes = 64 * 1024;

class Refused extends Error {}

/** A socket `lookup` that resolves the name and passes on only the addresses the guard allows. */
function guardedLookup(host: string, allowHosts: ReadonlySet<string>, resolve: Resolve): LookupFunction {
  return (hostname, options, callback) => {
    resolve(hostname).then(
      (found) => {
        const allowed = found.filter((entry) => addressAllowed(host, entry.address, allowHosts));
        const first = allowed[0];
        if (first === undefined)
          return callback(new Refused(`address refused: ${found[0]?.address ?? hostname}`), '', 0);
        if (options.all) return (callback as unknown as (e: null, all: LookupAddress[]) => void)(null, allowed);
        callback(null, first.address, first.family);
      },
      (error: NodeJS.ErrnoException) => callback(error, '', 0),
    );
  };
}

function shortReason(error: Error & { code?: string }, host: string): string {
  if (error instanceof Refused) return error.message;
  switch (error.code) {
    case 'ECONNREFUSED':
      return 'connection refused';
    case 'ECONNRESET':
      return 'connection reset';
    case 'ENOTFOUND':
      return `host not found: ${host}`;
    case 'EAI_AGAIN':
      return `host lookup failed: ${host}`;
    default:
      return error.code ?? error.message.slice(0, 200);
  }
}

/** Makes one attempt; never throws. */
export function attemptDelivery(options: AttemptOptions): Promise<AttemptResult> {
  const timeoutMs = options.timeoutMs ?? attemptTimeoutMs;
  const answerLimit = options.maxAnswerBytes ?? maxAnswerBytes;
  let url: URL;
  try {
    url = new URL(options.url);
  } catch {
    return Promise.resolve({ delivered: false, reason: 'not a URL' });
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:')
    return Promise.resolve({ delivered: false, reason: `scheme refused: ${url.protocol.slice(0, -1)}` });
  const host = normalHost(url.hostname);
  // A literal address is dialled without a lookup, so it is checked here; a name is checked in the lookup.
  if (hostRefusal(host, options.allowHosts) !== null)
    return Promise.resolve({ delivered: false, reason: `address refused: ${host}` });
  const send = url.protocol === 'https:' ? httpsRequest : httpRequest;
  return new Promise((resolve) => {
    let settled = false;
    const finish = (result: AttemptResult) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      request.destroy();
      resolve(result);
    };
    const request = send(url, {
      method: 'POST',
      headers: { ...options.headers, 'content-length': String(Buffer.byteLength(options.body)) },
      lookup: guardedLookup(host, options.allowHosts, options.resolve ?? systemResolve),
      // A fresh connection per attempt: a pooled socket would skip the lookup, and with it the guard.
      agent: false,
    });
    const timer = setTimeout(
      () => finish({ delivered: false, reason: `timed out after ${timeoutMs / 1000} s` }),
      timeoutMs,
    );
    const abort = () => finish({ delivered: false, reason: 'stopped' });
    if (options.signal?.aborted) abort();
    options.signal?.addEventListener('abort', abort, { once: true });
    request.on('close', () => options.signal?.removeEventListener('abort', abort));
    request.on('error', (error) => finish({ delivered: false, reason: shortReason(error, host) }));
    request.on('response', (response: IncomingMessage) => {
      const status = response.statusCode ?? 0;
      const result: AttemptResult =
        status >= 200 && status < 300
          ? { delivered: true, status }
          : {
              delivered: false,
              reason: status >= 300 && status < 400 ? `HTTP ${status} (redirect not followed)` : `HTTP ${status}`,
            };
      let read = 0;
      response.on('data', (chunk: Buffer) => {
        read += chunk.length;
        if (read >= answerLimit) finish(result);
      });
      response.on('end', () => finish(result));
      response.on('error', () => finish(result));
    });
    request.end(options.body);
  });
}
