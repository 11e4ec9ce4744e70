// A run's exchanges as a HAR 1.2 (--har): every request with its whole body (a form's parts with their files'
// contents, bytes as base64) and every answer (an event stream as its text), each with the check that sent it, its
// operation, whose token it carried and how its answer broke the contract, judged before redaction (a redacted
// webhook secret no longer matches its pattern). Secrets are redacted (redact.ts).
import { writeFileSync } from 'node:fs';
import { gzipSync } from 'node:zlib';
import { STATUS_CODES } from 'node:http';
import { packageVersion } from '@jes/contract/package-version';
import type { Header, PostData } from 'har-format';
import type { Contract } from '../contract/contract.ts';
import { contentTypeViolations, headerViolations, schemaViolations } from '../contract/responses.ts';
import { type Sent, sentOf } from '../sent.ts';
import type { ConformanceOptions, Exchange } from '../types.ts';
import type { RecordedEntry, RecordedHar, RecordedPostData, RecordedRun } from './har.ts';
import { createRedactor, type Redactor, type Secrets, secretValues } from './redact.ts';

export interface Recording {
  exchanges: readonly Exchange[];
  /** The contract the run held the deployment to (each answer's violations are judged by it). */
  contract: Contract;
  run: RecordedRun;
  options: Pick<ConformanceOptions, 'username' | 'password' | 'username2' | 'password2'> & {
    /** Headers given with -H (ConformanceOptions.headers): their values are secrets. */
    headers?: Record<string, string>;
  };
}

/** What the run was given and issued that must not be written: passwords, tokens, webhook secrets, -H values. */
function secretsOf({ exchanges, options }: Recording): Secrets {
  const values: Secrets['values'] = [];
  const add = (value: string, name: string) => {
    if (value && !values.some((s) => s.value === value)) values.push({ value, name });
  };
  exchanges.forEach((e, index) => {
    const token = (e.response?.json as { access_token?: unknown } | undefined)?.access_token;
    if (e.operationId === 'login' && typeof token === 'string') add(token, `token@${index}`);
  });
  for (const e of exchanges) {
    const sent = sentOf(e);
    const authorization = (sent?.headers ?? e.request.headers).authorization ?? '';
    if (sent?.user && /^Bearer /i.test(authorization))
      add(authorization.slice(7), sent.user === 'user' ? 'token' : 'token2');
  }
  for (const e of exchanges) for (const value of secretValues(e.response?.json)) add(value, 'secret');
  const given = Object.entries(options.headers ?? {});
  for (const [, value] of given) if (value.length >= 8) add(value, 'header');
  return {
    users: [
      ...(options.username !== undefined && options.password !== undefined
        ? [{ name: 'password' as const, username: options.username, password: options.password }]
        : []),
      ...(options.username2 !== undefined && options.password2 !== undefined
        ? [{ name: 'password2' as const, username: options.username2, password: options.password2 }]
        : []),
    ],
    values,
    headers: new Set(given.map(([name]) => name.toLowerCase())),
  };
}

function postData(exchange: Exchange, sent: Sent | undefined, redact: Redactor): RecordedPostData | undefined {
  const body = sent?.body;
  if (!body) return undefined;
  const headers = sent.headers ?? exchange.request.headers;
  const type = Object.entries(headers).find(([name]) => name.toLowerCase() === 'content-type')?.[1];
  if ('text' in body) {
    const text = exchange.operationId === 'login' ? redact.loginBody(body.text) : redact.text(body.text);
    // fetch labels a string body it is given without a Content-Type so.
    return { mimeType: type ?? 'text/plain;charset=UTF-8', text };
  }
  if ('bytes' in body)
    return {
      mimeType: type ?? 'application/octet-stream',
      text: Buffer.from(body.bytes).toString('base64'),
      _encoding: 'base64',
    };
  const params = body.form.map((part) =>
    'value' in part
      ? { name: part.name, value: redact.text(part.value) }
      : { name: part.name, fileName: part.filename, contentType: part.type, value: redact.text(part.content) },
  );
  return { mimeType: 'multipart/form-data', params } satisfies PostData;
}

function bodySize(sent: Sent | undefined): number {
  const body = sent?.body;
  if (!body) return 0;
  if ('text' in body) return Buffer.byteLength(body.text);
  if ('bytes' in body) return body.bytes.length;
  return -1; // a form's size depends on the boundary fetch chose
}

const headerList = (headers: Record<string, string>, redact: Redactor): Header[] =>
  Object.entries(headers).map(([name, value]) => ({ name, value: redact.header(name, value) }));

function entryOf(exchange: Exchange, index: number, all: readonly Exchange[], recording: Recording, redact: Redactor) {
  const sent = sentOf(exchange);
  const started = sent?.timing?.started ?? 0;
  const received = exchange.response;
  const time = received?.ms ?? 0;
  const wait = Math.min(time, Math.max(0, (sent?.timing?.headers ?? started + time) - started));
  const url = redact.text(exchange.request.url);
  const data = postData(exchange, sent, redact);
  const violations = received
    ? [
        ...contentTypeViolations(recording.contract, exchange),
        ...headerViolations(recording.contract, exchange),
        ...schemaViolations(recording.contract, exchange),
      ].map((v) => redact.text(v))
    : [];
  // Http sends a request answered 429 with Retry-After again (up to three times): the next of the check to that URL.
  const retried =
    received?.status === 429 &&
    received.headers['retry-after'] !== undefined &&
    all.slice(index + 1).find((e) => e.check === exchange.check && e.request.url === exchange.request.url)?.request
      .method === exchange.request.method;
  const entry: RecordedEntry = {
    startedDateTime: new Date(started).toISOString(),
    time,
    request: {
      method: exchange.request.method,
      url,
      httpVersion: 'HTTP/1.1',
      cookies: [],
      headers: headerList(sent?.headers ?? exchange.request.headers, redact),
      queryString: [...new URL(url).searchParams].map(([name, value]) => ({ name, value })),
      ...(data ? { postData: data } : {}),
      headersSize: -1,
      bodySize: bodySize(sent),
    },
    response: received
      ? {
          status: received.status,
          statusText: STATUS_CODES[received.status] ?? '',
          httpVersion: 'HTTP/1.1',
          cookies: [],
          headers: headerList(received.headers, redact),
          content: {
            size: Buffer.byteLength(received.text),
            mimeType: received.headers['content-type'] ?? '',
            text: redact.text(received.text),
          },
          redirectURL: received.headers.location ?? '',
          headersSize: -1,
          bodySize: -1,
        }
      : {
          status: 0,
          statusText: '',
          httpVersion: 'HTTP/1.1',
          cookies: [],
          headers: [],
          content: { size: 0, mimeType: 'x-unknown' },
          redirectURL: '',
          headersSize: -1,
          bodySize: -1,
        },
    cache: {},
    timings: { send: 0, wait, receive: time - wait },
    _check: exchange.check,
    ...(exchange.operationId ? { _operationId: exchange.operationId } : {}),
    ...(sent?.user ? { _user: sent.user } : {}),
    ...(violations.length ? { _violations: violations } : {}),
    ...(exchange.error ? { _error: redact.text(exchange.error) } : {}),
    ...(sent?.timing?.stream ? { _stream: sent.timing.stream } : {}),
    ...(retried ? { _retried: true as const } : {}),
  };
  return entry;
}

/** The run as a HAR 1.2, its secrets redacted. */
export function recordHar(recording: Recording): RecordedHar {
  const redact = createRedactor(secretsOf(recording));
  const { exchanges } = recording;
  return {
    log: {
      version: '1.2',
      creator: { name: '@jes/conformance', version: packageVersion(import.meta.dirname) ?? 'unknown' },
      entries: exchanges.map((e, i) => entryOf(e, i, exchanges, recording, redact)),
      _jes: recording.run,
    },
  };
}

/** Writes the HAR, gzipped when the path ends in `.gz` (a default run's 24 MB is mostly three padded 4 MiB bodies: 0.2 MB gzipped). */
export function writeHar(path: string, har: RecordedHar): void {
  const text = `${JSON.stringify(har, null, 2)}\n`;
  writeFileSync(path, /\.gz$/i.test(path) ? gzipSync(text) : text);
}
