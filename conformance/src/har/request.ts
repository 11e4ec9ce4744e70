// A recorded request made ready to send again: its path under the new base URL, the recorded run's id replaced by
// the replay's own (in names, files and Idempotency-Keys: the replay is a run of its own on a shared deployment),
// recorded ids by the new deployment's (ids.ts), and each redacted secret by the replay's own: the password it
// was given, the token its replay of the login that issued the recorded one got, a Basic credential made again.
// Headers given with -H were redacted whole: the replay's own connection sends its own.
import type { Auth, RequestSpec } from '../http.ts';
import type { RecordedEntry } from './har.ts';
import type { IdMap } from './ids.ts';
import { markers } from './redact.ts';

type User = 'user' | 'user2';

export interface Credentials {
  username(user: User): string | undefined;
  password(user: User): string | undefined;
  /** The token entry `index`'s replayed login got (undefined when it got none). */
  issued(index: number): string | undefined;
  /** A token of the user, logging in if need be. */
  token(user: User): Promise<string>;
}

export interface Translation {
  ids: IdMap;
  /** The recorded run's id and the replay's (of the same length). */
  runId: { then: string; now: string };
  credentials: Credentials;
}

/** The markers' names in a text. */
const namesIn = (text: string) => [...text.matchAll(markers)].map((m) => m[1]!);

const userOf = (name: string): User => (/2(:json)?$/.test(name) ? 'user2' : 'user');

/** The value a marker stands for now (undefined: none, it stays), tokens fetched first. */
async function secretsFor(names: string[], entry: RecordedEntry, credentials: Credentials) {
  const values = new Map<string, string>();
  for (const name of new Set(names)) {
    const [base, json] = name.split(':') as [string, string | undefined];
    let value: string | undefined;
    if (base === 'password' || base === 'password2') value = credentials.password(userOf(base));
    else if (base === 'token' || base === 'token2') value = await credentials.token(userOf(base));
    else if (base.startsWith('token@')) {
      value = credentials.issued(Number(base.slice(6)));
      // The login that issued it failed now: a token of the same user stands in.
      if (value === undefined && entry._user) value = await credentials.token(entry._user);
    }
    if (value !== undefined) values.set(name, json ? JSON.stringify(value).slice(1, -1) : value);
  }
  return values;
}

/** Where the recorded request went, as a path under the base URL (its query included). */
function recordedPath(url: string, recordedBase: string): string {
  if (url.startsWith(recordedBase)) return url.slice(recordedBase.length) || '/';
  const parsed = new URL(url);
  return `${parsed.pathname}${parsed.search}`;
}

function basic(recorded: string, name: 'basic' | 'basic2', credentials: Credentials): string | undefined {
  const user = name === 'basic' ? 'user' : 'user2';
  const username = credentials.username(user);
  const password = credentials.password(user);
  if (username === undefined || password === undefined) return undefined;
  const encoded = Buffer.from(`${username}:${password}`).toString('base64');
  // Padded as the recorded credential was (ignored_auth sends it without).
  return `Basic ${recorded.endsWith('=') ? encoded : encoded.replace(/=+$/, '')}`;
}

/** The request of a recorded entry as it goes to the new deployment. */
export async function requestOf(entry: RecordedEntry, recordedBase: string, t: Translation): Promise<RequestSpec> {
  const { request } = entry;
  const texts = [request.url, ...request.headers.map((h) => h.value), request.postData?.text ?? ''];
  for (const p of request.postData?.params ?? []) texts.push(p.value ?? '');
  const secrets = await secretsFor(texts.flatMap(namesIn), entry, t.credentials);
  const translate = (text: string) =>
    t.ids
      .apply(text.split(t.runId.then).join(t.runId.now))
      .replace(markers, (whole, name: string) => secrets.get(name) ?? whole);
  const eventId = (id: string) => t.ids.events.get(id) ?? id;

  let path = translate(recordedPath(request.url, recordedBase));
  path = path.replace(
    /([?&]last_event_id=)([^&]*)/,
    (_, key: string, id: string) => `${key}${encodeURIComponent(eventId(decodeURIComponent(id)))}`,
  );
  const form = request.postData?.params !== undefined;
  const headers: Record<string, string> = {};
  let auth: Auth = 'none';
  for (const { name, value } of request.headers) {
    const lower = name.toLowerCase();
    if (value === '[redacted:header]' || (form && lower === 'content-type')) continue;
    if (lower === 'authorization') {
      const whole = /^Bearer \[redacted:(token2?)\]$/.exec(value);
      const basicName = /^Basic \[redacted:(basic2?)\]=*$/.exec(value)?.[1] as 'basic' | 'basic2' | undefined;
      if (whole) auth = userOf(whole[1]!);
      else if (basicName) auth = { authorization: basic(value, basicName, t.credentials) ?? value };
      else auth = { authorization: translate(value), ...(entry._user ? { of: entry._user } : {}) };
      continue;
    }
    headers[lower] = lower === 'last-event-id' ? eventId(value) : translate(value);
  }
  const spec: RequestSpec = { method: request.method, path, auth, headers };
  const data = request.postData;
  if (data?.params) {
    const body = new FormData();
    for (const p of data.params) {
      const value = translate(p.value ?? '');
      if (p.fileName === undefined) body.append(p.name, value);
      else body.append(p.name, new Blob([value], { type: p.contentType ?? '' }), p.fileName);
    }
    spec.body = body;
  } else if (data?._encoding === 'base64') spec.body = new Uint8Array(Buffer.from(data.text ?? '', 'base64'));
  else if (data?.text !== undefined) spec.body = translate(data.text);
  return spec;
}
