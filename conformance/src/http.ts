// Every request of the suite goes through here: sent over the run's transport (transport.ts: proxies, a private CA,
// a client certificate), recorded as an Exchange (so that every response of every check is validated against the
// contract; secrets hidden), with the user's token and the run's own headers added, paced when the run has a rate
// limit of its own, held back while the deployment's RateLimit headers say its quota is spent, and repeated after
// `Retry-After` when a rate limit answers 429 all the same (the suite may run against a shared deployment). A
// deployment that stops answering, or whose TLS handshake fails, stops the run (TargetUnreachable).
import type { Contract } from './contract/contract.ts';
import { eventParser, eventsAsJson, isEventStream, parseEventStream, type StreamRead } from './event-stream.ts';
import { recordedHeaders } from './given-headers.ts';
import { type PolicyWait, RateLimits } from './rate-limits.ts';
import { recordSent, sentBody, type Timing } from './sent.ts';
import { connectionFailure, createTransport, type Transport } from './transport.ts';
import type { Exchange, RateLimitWait } from './types.ts';

/** A literal `authorization` may say whose credential it is (`of`), so that reports show a variable instead. */
export type Auth = 'user' | 'user2' | 'none' | { authorization: string; of?: 'user' | 'user2' };

export interface RequestSpec {
  method: string;
  /** The path, with its query string if any. */
  path: string;
  /** Query parameters added to `path` (arrays repeat the name). */
  query?: Record<string, string | number | readonly (string | number)[] | undefined>;
  /** Whose token goes in `Authorization` (default: the main user's), none, or a literal header value. */
  auth?: Auth;
  headers?: Record<string, string>;
  /** A body sent as JSON (`Content-Type: application/json`). */
  json?: unknown;
  /** A raw body (with `headers['content-type']` set by the caller), or a form. */
  body?: string | Uint8Array<ArrayBuffer> | FormData;
  timeoutMs?: number;
  /** Read an event stream as it comes (GET /job/{job_id}/events, GET /events) instead of waiting for its end. */
  stream?: StreamSpec;
}

export interface StreamSpec {
  /** Called once the answer's headers have come: the stream is open. */
  opened?(): void;
  /** Whether the events so far are enough: the suite then closes the stream. */
  enough?(events: StreamRead['events']): boolean;
  /** How long to read in all before the suite closes the stream (default 30 s). */
  ms?: number;
}

export interface Reply {
  status: number;
  headers: Record<string, string>;
  text: string;
  /** The parsed body when it is JSON, else undefined. */
  json: any;
  exchange: Exchange;
  /** For a request with `stream` answered by an event stream: its events and how the reading ended. */
  stream?: StreamRead;
}

/** A check's request failed for a reason that stops the check; carries the exchange that shows it. */
export class CheckAbort extends Error {
  override name = 'CheckAbort';
  readonly exchange: Exchange | undefined;
  constructor(message: string, exchange?: Exchange) {
    super(message);
    this.exchange = exchange;
  }
}

/** The check cannot run against this deployment (it lacks what the check is about): skipped, with the reason. */
export class CheckSkip extends Error {
  override name = 'CheckSkip';
}

/** No connection could be made to the deployment: every request after this one would fail the same way. */
export class TargetUnreachable extends Error {
  override name = 'TargetUnreachable';
  readonly code: string;
  readonly check: string;
  /** `METHOD /path` of the request no one answered. */
  readonly request: string;
  /** Set when the TLS handshake failed: what went wrong and what to do. */
  readonly tls: string | undefined;
  constructor(code: string, check: string, request: string, tls?: string) {
    super(`${request}: no ${tls ? 'TLS ' : ''}connection to the deployment (${code})`);
    this.code = code;
    this.check = check;
    this.request = request;
    this.tls = tls;
  }

  /** `no connection (ECONNREFUSED)`, `no TLS connection (SELF_SIGNED_CERT_IN_CHAIN)`. */
  get failure(): string {
    return `no ${this.tls ? 'TLS ' : ''}connection (${this.code})`;
  }
}

/** Seconds to wait of a Retry-After header (seconds or an HTTP date), or undefined. */
function retryAfterSeconds(value: string | undefined): number | undefined {
  if (value === undefined || value.trim() === '') return undefined;
  const seconds = /^\s*\d+(\.\d+)?\s*$/.test(value) ? Number(value) : (Date.parse(value) - Date.now()) / 1000;
  return Number.isFinite(seconds) ? seconds : undefined;
}

const maxPreview = 2000;

/** The body as it goes into reports: shortened, with any password hidden. */
function preview(body: RequestSpec['body'] | undefined, text: string | undefined): string | undefined {
  if (text !== undefined) {
    const hidden = text.replace(/("password"\s*:\s*)"(?:[^"\\]|\\.)*"/g, '$1"(hidden)"');
    return hidden.length > maxPreview ? `${hidden.slice(0, maxPreview)}… (${Buffer.byteLength(text)} bytes)` : hidden;
  }
  if (body instanceof FormData) return `(multipart/form-data: ${[...body.keys()].join(', ')})`;
  if (body instanceof Uint8Array) return `(${body.length} bytes)`;
  return undefined;
}

export function withQuery(path: string, query: RequestSpec['query']): string {
  const params = new URLSearchParams();
  for (const [name, value] of Object.entries(query ?? {})) {
    if (value === undefined) continue;
    for (const item of [value].flat()) params.append(name, String(item));
  }
  const text = params.toString();
  return text ? `${path}${path.includes('?') ? '&' : '?'}${text}` : path;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * The longest single wait for a rate limit: a minute, the window of the reference server's job and request
 * policies (its `t` is whole seconds, hence the margin). A longer one is not waited for: the request goes out, and
 * a 429 that still comes back is the check's to see.
 */
export const maxWaitMs = 65_000;

/** Milliseconds a check waited: ahead of requests its RateLimit headers said would be refused, and after 429s. */
export interface Waited {
  ahead: number;
  after429: number;
}

export class Http {
  readonly exchanges: Exchange[] = [];
  /** What each check spent waiting for the deployment's rate limits. */
  readonly waited = new Map<string, Waited>();
  /** The deployment's quotas as its RateLimit headers announce them. */
  readonly rateLimits = new RateLimits();
  readonly baseUrl: string;
  readonly contract: Contract;
  /** Awaited before each request when the run paces itself (--rate-limit). */
  pace: (() => Promise<void>) | undefined;
  /** Told of each wait for a 429's Retry-After before it starts. */
  onWait: ((wait: RateLimitWait) => void) | undefined;
  /** Set by the first request no connection could be made for; every request after it throws at once. */
  unreachable: TargetUnreachable | undefined;
  /** Whether any request got an answer (a deployment that never did was unreachable from the start). */
  answered = false;
  /**
   * Told of each answer once it has come whole (a stream's once it closed), with when its request went out
   * (performance.now()): terminal_states' watch (terminal/watch.ts) orders what it reads by both.
   */
  onAnswer: ((exchange: Exchange, sentAt: number) => void) | undefined;
  /** Supplies the `Authorization` value of a user (logging in on first use). */
  tokenOf: (user: 'user' | 'user2', check: string) => Promise<string> = () => Promise.reject(new Error('no session'));
  /** Told of each answer to a request with a user's session token (sessions.ts: a given token refused). */
  onSessionAnswer: ((user: 'user' | 'user2', exchange: Exchange) => void) | undefined;
  /** Proxies, a private CA, a client certificate: how requests reach the deployment. */
  readonly transport: Transport;
  /** The headers sent with every request (`-H`), names in lower case. */
  readonly headers: Record<string, string>;

  constructor(
    baseUrl: string,
    contract: Contract,
    options: {
      pace?: () => Promise<void>;
      onWait?: (wait: RateLimitWait) => void;
      transport?: Transport;
      headers?: Record<string, string>;
    } = {},
  ) {
    this.baseUrl = baseUrl.replace(/\/+$/, '');
    this.contract = contract;
    this.pace = options.pace;
    this.onWait = options.onWait;
    this.transport = options.transport ?? createTransport({});
    this.headers = options.headers ?? {};
  }

  /** Waits `ms` for a rate limit, noting it for the check and telling onWait first. */
  private async wait(kind: keyof Waited, ms: number, wait: RateLimitWait): Promise<void> {
    this.onWait?.(wait);
    const waited = this.waited.get(wait.check) ?? { ahead: 0, after429: 0 };
    waited[kind] += ms;
    this.waited.set(wait.check, waited);
    await sleep(ms);
  }

  async send(check: string, spec: RequestSpec): Promise<Reply> {
    const path = withQuery(spec.path, spec.query);
    const request = `${spec.method} ${path.split('?')[0]}`;
    if (this.unreachable) throw new TargetUnreachable(this.unreachable.code, check, request, this.unreachable.tls);
    // The run's own headers first: a header the suite sets on a request is the request's.
    const headers: Record<string, string> = {
      ...this.headers,
      accept: 'application/json, application/problem+json',
      ...spec.headers,
    };
    const auth = spec.auth ?? 'user';
    if (auth === 'user' || auth === 'user2') headers.authorization = `Bearer ${await this.tokenOf(auth, check)}`;
    else if (auth !== 'none') headers.authorization = auth.authorization;
    const user = auth === 'user' || auth === 'user2' ? auth : auth === 'none' ? undefined : auth.of;
    let text: string | undefined;
    let body = spec.body;
    if (spec.json !== undefined) {
      headers['content-type'] ??= 'application/json';
      body = text = JSON.stringify(spec.json);
    } else if (typeof body === 'string') text = body;
    const sent = {
      headers,
      ...(user ? { user } : {}),
      ...(body !== undefined ? { body: (await sentBody(body))! } : {}),
    };
    const operationId = this.contract.find(spec.method, path.split('?')[0]!)?.operation.operationId as
      string | undefined;
    const where = { check, method: spec.method, path: path.split('?')[0]! };
    // Quotas are kept per user, and often per operation: a kind of request is all three.
    const kind = `${spec.method} ${operationId ?? where.path} ${user ?? 'anonymous'}`;
    const ahead = async (until: PolicyWait) => {
      if (until.ms > maxWaitMs) return false;
      const { policy, quota, windowSeconds } = until;
      await this.wait('ahead', until.ms, {
        ...where,
        seconds: Math.ceil(until.ms / 1000),
        policy,
        ...(quota !== undefined ? { quota } : {}),
        ...(windowSeconds !== undefined ? { windowSeconds } : {}),
      });
      return true;
    };
    for (let attempt = 0; ; attempt++) {
      await this.pace?.();
      const reserved = await this.rateLimits.reserve(kind, ahead);
      const exchange: Exchange = {
        check,
        operationId,
        request: {
          method: spec.method,
          url: this.baseUrl + path,
          headers: recordedHeaders(headers, this.headers),
          ...(preview(body, text) !== undefined ? { body: preview(body, text)! } : {}),
        },
      };
      this.exchanges.push(exchange);
      const started = Date.now();
      const sentAt = performance.now();
      const timing: Timing = { started };
      recordSent(exchange, { ...sent, timing });
      let res: Response;
      let responseText: string;
      let stream: StreamRead | undefined;
      try {
        res = await this.transport.fetch(this.baseUrl + path, {
          method: spec.method,
          headers,
          ...(body !== undefined ? { body } : {}),
          // A stream is read for its own time (readStream), with the usual 30 s for its headers on top.
          signal: AbortSignal.timeout(spec.timeoutMs ?? 30_000 + (spec.stream ? (spec.stream.ms ?? 30_000) : 0)),
        });
        this.answered = true;
        timing.headers = Date.now();
        if (spec.stream && res.ok && isEventStream(Object.fromEntries(res.headers))) {
          ({ text: responseText, read: stream } = await readStream(res, spec.stream));
          timing.stream = stream.ended;
        } else responseText = await res.text();
      } catch (error) {
        this.rateLimits.answered(kind, reserved, undefined);
        exchange.error = `${(error as Error).name}: ${(error as Error).message}${(error as { cause?: Error }).cause ? ` (${(error as { cause: Error }).cause.message})` : ''}`;
        const failed = connectionFailure(error, {
          https: /^https:/i.test(this.baseUrl),
          first: !this.answered,
          clientCertificate: this.transport.clientCertificate,
        });
        if (failed) throw (this.unreachable = new TargetUnreachable(failed.code, check, request, failed.tls));
        throw new CheckAbort(`${spec.method} ${path}: no response (${exchange.error})`, exchange);
      }
      const responseHeaders = Object.fromEntries([...res.headers].map(([k, v]) => [k.toLowerCase(), v]));
      this.rateLimits.answered(kind, reserved, responseHeaders);
      let json: unknown;
      if (/json/i.test(responseHeaders['content-type'] ?? '')) {
        try {
          json = JSON.parse(responseText);
        } catch {}
      } else if (isEventStream(responseHeaders)) {
        // As the contract's schema of a stream has it, so that the response checks validate it as any body.
        json = eventsAsJson(stream?.events ?? parseEventStream(responseText));
      }
      exchange.response = {
        status: res.status,
        headers: responseHeaders,
        text: responseText,
        ...(json !== undefined ? { json } : {}),
        ms: Date.now() - started,
      };
      this.onAnswer?.(exchange, sentAt);
      if (auth === 'user' || auth === 'user2') this.onSessionAnswer?.(auth, exchange);
      const retryAfter = retryAfterSeconds(responseHeaders['retry-after']);
      if (res.status === 429 && attempt < 3 && retryAfter !== undefined) {
        // Whole seconds, rounded up: a retry a moment early is refused again.
        const seconds = Math.ceil(Math.min(maxWaitMs / 1000, Math.max(1, retryAfter)));
        await this.wait('after429', seconds * 1000, { ...where, retryAfter: responseHeaders['retry-after']!, seconds });
        continue;
      }
      return {
        status: res.status,
        headers: responseHeaders,
        text: responseText,
        json,
        exchange,
        ...(stream ? { stream } : {}),
      };
    }
  }
}

/**
 * Reads an event stream until it closes, `enough` says so or its time is up (the suite then closes it); the text
 * read is kept for the exchange. A stream that breaks off midway counts as closed: what it sent is judged.
 */
async function readStream(res: Response, spec: StreamSpec): Promise<{ text: string; read: StreamRead }> {
  spec.opened?.();
  const parser = eventParser();
  const events: StreamRead['events'] = [];
  const decoder = new TextDecoder();
  const reader = res.body!.getReader();
  let text = '';
  let ended: StreamRead['ended'] = 'closed';
  let timer: NodeJS.Timeout | undefined;
  const timeUp = new Promise<'timed out'>((resolve) => {
    timer = setTimeout(() => resolve('timed out'), spec.ms ?? 30_000);
  });
  try {
    for (;;) {
      const next = await Promise.race([reader.read(), timeUp]);
      if (next === 'timed out') {
        ended = next;
        break;
      }
      if (next.done) break;
      const piece = decoder.decode(next.value, { stream: true });
      text += piece;
      events.push(...parser.push(piece));
      if (spec.enough?.(events)) {
        ended = 'stopped';
        break;
      }
    }
  } catch {
    // Reset mid-stream: judged by what came.
  } finally {
    if (ended === 'closed') events.push(...parser.finish());
    clearTimeout(timer);
    if (ended !== 'closed') await reader.cancel().catch(() => undefined);
  }
  const { retry, comments } = parser.state;
  return { text, read: { events, comments, ended, ...(retry !== undefined ? { retry } : {}) } };
}
