// replayHar: a recorded run (--har) sent again, to the same deployment a day later or to another, through the
// same connection a run uses (run.ts' connect: its pace, rate-limit waits and sessions), reporting each answer that
// now differs in status, schema or semantics (compare.ts). Requests go in the recorded order; one that began before
// another had ended then (a stream read while a job starts) goes alongside it now, after what had ended before it
// began, and after the headers of what had been answered. A poll whose recorded answer had a job, execution or data
// file further along than the new one (ended then, still RUNNING now) is repeated for up to `pollSeconds`, so that a
// slower deployment is not reported as a different one; an event stream is read as it was: until it closes, or
// until as many events as the check read before closing it.
import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { gunzipSync } from 'node:zlib';
import { parseEventStream } from '../event-stream.ts';
import { CheckAbort, type Reply, type StreamSpec, TargetUnreachable } from '../http.ts';
import { contentTypeViolations, headerViolations, schemaViolations } from '../contract/responses.ts';
import { connect, type Connection } from '../run.ts';
import { behind, type Difference, type DifferenceKind, differences, recordedJson } from './compare.ts';
import type { RecordedEntry, RecordedHar, RecordedRun } from './har.ts';
import { IdMap } from './ids.ts';
import { recordedInputs } from './inputs.ts';
import { markers } from './redact.ts';
import { requestOf } from './request.ts';

export type { DifferenceKind } from './compare.ts';

export interface ReplayOptions extends Omit<Connection, 'username' | 'password'> {
  /** The HAR a run wrote (`--har`, ConformanceOptions.har), or its path. */
  har: string | RecordedHar;
  /** The user the run logged in as (default: the one the HAR names) and its password, which the HAR never holds. */
  username?: string;
  password?: string;
  /** How long a poll is repeated until the new answer has got as far as the recorded one (default 30 s). */
  pollSeconds?: number;
  /** Called as each difference is found (for live output). */
  onDifference?: (difference: ReplayDifference) => void;
}

/** One way an answer now differs from the recorded one. */
export interface ReplayDifference {
  /** The entry's index in the HAR's `log.entries` (from 0). */
  entry: number;
  check: string;
  method: string;
  /** The recorded request's path and query (with the recorded ids, as the HAR has them). */
  path: string;
  kind: DifferenceKind;
  message: string;
}

export interface ReplayReport {
  baseUrl: string;
  /** The run the HAR recorded. */
  recorded: RecordedRun;
  entries: number;
  /** Entries sent again (a 429 the run waited out and sent again is left out, as are those after an unreachable stop). */
  sent: number;
  /** Requests sent in all: polls repeated and logins for tokens count too. */
  requests: number;
  /** The checks whose requests were sent again, in the order of their first. */
  checks: string[];
  differences: ReplayDifference[];
  /** Set when the deployment stopped answering: the replay stopped there. */
  unreachable?: string;
  ms: number;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Reads a HAR file a run wrote, or says why it is not one. */
export function readHar(path: string): RecordedHar {
  const bytes = readFileSync(path);
  // Gzipped (written as run.har.gz) whatever its name: gzip's magic number.
  const text = (bytes[0] === 0x1f && bytes[1] === 0x8b ? gunzipSync(bytes) : bytes).toString('utf8');
  let har: RecordedHar;
  try {
    har = JSON.parse(text) as RecordedHar;
  } catch (error) {
    throw new Error(`${path} is not JSON (${(error as Error).message}): a HAR a run wrote with --har`);
  }
  if (!Array.isArray(har?.log?.entries) || !har.log._jes)
    throw new Error(`${path} is not a HAR of a jes-conformance run (no log._jes: record one with --har)`);
  return har;
}

/** A run id of the replay's own, as long as the recorded one (a body's size must not change). */
function newRunId(recorded: string): string {
  const id = `${Date.now().toString(36)}${randomBytes(8).toString('hex')}`;
  return id.length >= recorded.length ? id.slice(0, recorded.length) : id.padEnd(recorded.length, '0');
}

/** Which users' passwords the recorded requests need (a login body's, a Basic credential, a token to log in for). */
function usersNeeded(entries: RecordedEntry[]): Set<'user' | 'user2'> {
  const needed = new Set<'user' | 'user2'>();
  for (const e of entries) {
    const texts = [e.request.url, ...e.request.headers.map((h) => h.value), e.request.postData?.text ?? ''];
    for (const p of e.request.postData?.params ?? []) texts.push(p.value ?? '');
    for (const text of texts)
      for (const [, name] of text.matchAll(markers)) {
        if (/^(password2|token2|basic2)\b/.test(name!)) needed.add('user2');
        else if (/^(password|token|basic)\b/.test(name!))
          needed.add(name!.startsWith('token@') && e._user === 'user2' ? 'user2' : 'user');
      }
  }
  return needed;
}

export async function replayHar(options: ReplayOptions): Promise<ReplayReport> {
  const started = Date.now();
  const har = typeof options.har === 'string' ? readHar(options.har) : options.har;
  const recorded = har.log._jes;
  const entries = har.log.entries;
  const username = options.username ?? recorded.users.user;
  const username2 = options.username2 ?? recorded.users.user2;
  for (const user of usersNeeded(entries)) {
    const [name, password] = user === 'user' ? [username, options.password] : [username2, options.password2];
    if (password === undefined)
      throw new Error(
        `the recorded run sends the password of ${name ?? 'its second user'} (a login, a token): give it (the HAR never holds it)`,
      );
  }
  const http = connect({
    ...options,
    ...(username !== undefined ? { username } : {}),
    ...(username2 !== undefined ? { username2 } : {}),
  });
  const ids = new IdMap(http.contract);
  const inputs = recordedInputs(entries);
  const issued = new Map<number, string>();
  const raced = new Set<string>();
  const translation = {
    ids,
    runId: { then: recorded.runId, now: newRunId(recorded.runId) },
    credentials: {
      username: (user: 'user' | 'user2') => (user === 'user' ? username : username2),
      password: (user: 'user' | 'user2') => (user === 'user' ? options.password : options.password2),
      issued: (index: number) => issued.get(index),
      token: (user: 'user' | 'user2') => http.tokenOf(user, 'replay'),
    },
  };
  const found: ReplayDifference[] = [];
  let stop: TargetUnreachable | undefined;
  let sent = 0;

  async function replayEntry(index: number, opened: () => void): Promise<void> {
    const entry = entries[index]!;
    const then = recordedJson(entry);
    const spec = await requestOf(entry, recorded.baseUrl, translation);
    const stream = /^text\/event-stream/i.test(entry.response.content.mimeType);
    if (stream) spec.stream = streamSpec(entry, opened, ids);
    const send = () => http.send(entry._check, spec);
    let reply: Reply | undefined;
    let error: string | undefined;
    try {
      reply = await send();
      const deadline = Date.now() + (options.pollSeconds ?? 30) * 1000;
      for (let wait = 100; spec.method === 'GET' && Date.now() < deadline; wait = Math.min(1000, wait * 2)) {
        if (!behind(entry, then, reply, (id) => ids.recorded(id))) break;
        await sleep(wait);
        reply = await send();
      }
    } catch (caught) {
      if (caught instanceof TargetUnreachable) {
        stop = caught;
        return;
      }
      error = caught instanceof CheckAbort ? caught.message : String(caught);
    }
    sent++;
    const report = (kind: DifferenceKind, message: string) => {
      const url = new URL(entry.request.url);
      const difference = {
        entry: index,
        check: entry._check,
        method: entry.request.method,
        path: `${url.pathname}${url.search}`,
        kind,
        message,
      };
      found.push(difference);
      options.onDifference?.(difference);
    };
    let now: Parameters<typeof differences>[0]['now'];
    if (reply) {
      const token = reply.json?.access_token;
      if (entry._operationId === 'login' && typeof token === 'string') issued.set(index, token);
      if (reply.status === entry.response.status) {
        const location = (headers: { name: string; value: string }[]) =>
          headers.find((h) => h.name === 'location')?.value;
        const thenLocation = location(entry.response.headers);
        for (const message of ids.learn(index, {
          then: { json: then, ...(thenLocation ? { location: thenLocation } : {}) },
          now: { json: reply.json, ...(reply.headers.location ? { location: reply.headers.location } : {}) },
        }))
          report('semantics', message);
        if (stream)
          ids.learnEvents(
            parseEventStream(entry.response.content.text ?? '').map((e) => ({ ...e, data: jsonOr(e.data) })),
            (reply.stream?.events ?? []).map((e) => ({ ...e, data: jsonOr(e.data) })),
          );
      }
      const exchange = reply.exchange;
      now = {
        reply,
        violations: [
          ...contentTypeViolations(http.contract, exchange),
          ...headerViolations(http.contract, exchange),
          ...schemaViolations(http.contract, exchange),
        ],
      };
    } else now = { error: error ?? 'no answer' };
    for (const d of differences({ entry, then, now, ids, inputs, raced }) satisfies Difference[])
      report(d.kind, d.message);
  }

  // Each entry waits for those that had ended before it began, and for the headers of those that had been answered.
  const inFlight = new Map<number, { end: number; headersAt: number; done: Promise<void>; headers: Promise<void> }>();
  for (let index = 0; index < entries.length && !stop; index++) {
    const entry = entries[index]!;
    if (entry._retried) continue;
    const begins = Date.parse(entry.startedDateTime);
    for (const before of [...inFlight.values()]) {
      if (before.end <= begins) await before.done;
      else if (before.headersAt <= begins) await before.headers;
    }
    if (stop) break;
    let opened!: () => void;
    const headers = new Promise<void>((resolve) => (opened = resolve));
    const done = replayEntry(index, opened)
      .catch((error: unknown) => {
        found.push({
          entry: index,
          check: entry._check,
          method: entry.request.method,
          path: `${new URL(entry.request.url).pathname}${new URL(entry.request.url).search}`,
          kind: 'status',
          message: `the replay itself failed: ${String(error)}`,
        });
      })
      .finally(() => {
        opened();
        inFlight.delete(index);
      });
    inFlight.set(index, { end: begins + entry.time, headersAt: begins + entry.timings.wait, done, headers });
  }
  await Promise.all([...inFlight.values()].map((f) => f.done));
  found.sort((a, b) => a.entry - b.entry);
  return {
    baseUrl: http.baseUrl,
    recorded,
    entries: entries.length,
    sent,
    requests: http.exchanges.length,
    checks: [...new Set(http.exchanges.map((e) => e.check).filter((check) => check !== 'replay'))],
    differences: found,
    ...(stop ? { unreachable: `${http.baseUrl} stopped answering (${stop.code}) at ${stop.request}` } : {}),
    ms: Date.now() - started,
  };
}

function jsonOr(data: string): unknown {
  try {
    return JSON.parse(data);
  } catch {
    return data;
  }
}

/** How long and how far to read a recorded stream again: as the check read it. */
function streamSpec(entry: RecordedEntry, opened: () => void, ids: IdMap): StreamSpec {
  const recorded = parseEventStream(entry.response.content.text ?? '');
  // The check closed it: after as many events, or once the last it read has come now (a job's status, say).
  const last = recorded.at(-1);
  const said = (e: { event: string; data: string }, id: (raw: string) => string) => {
    const data = jsonOr(e.data) as { job_id?: unknown; status?: unknown } | undefined;
    return `${e.event}|${typeof data?.job_id === 'string' ? id(data.job_id) : ''}|${String(data?.status ?? '')}`;
  };
  if (entry._stream === 'stopped')
    return {
      opened,
      enough: (read) => {
        if (read.length >= recorded.length) return true;
        const wanted = last && said(last, (id) => ids.ids.get(id) ?? id);
        return wanted !== undefined && read.some((e) => said(e, (id) => id) === wanted);
      },
      ms: 60_000,
    };
  if (entry._stream === 'timed out') return { opened, ms: Math.min(60_000, Math.max(1000, entry.time)) };
  return { opened, ms: 60_000 };
}
