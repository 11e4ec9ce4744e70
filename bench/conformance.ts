// The conformance suite against the reference server as it comes (`npm run bench:conformance`): default rate
// limits (submit 60 a minute per user, the policy of job starts and uploads), the embedded database in a fresh
// folder, two users. Runs `jes-conformance` (the command users run) with a second user and without, each against
// a fresh server behind a proxy that counts what the server answered, and prints per run: the wall time, the
// time the suite waited for rate limits (from its stderr lines), the 429s it still got, the jobs it started and
// the data files it uploaded (new ones; replays and existing files apart), the requests each user's submit
// policy counted (those that started a job or stored a file), and the least time that policy allows for them: a window per quota past the first (a fixed
// window opens at its first request, so N requests need ceil(N / quota) windows). Figures only, no targets.
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type IncomingMessage } from 'node:http';
import { Readable } from 'node:stream';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { node, serverCli } from '../test/support/child-server.ts';
import { usersSetting } from '../test/support/users-setting.ts';
import { startProcess, stopAll } from './support/processes.ts';
import { root } from './support/settings.ts';

const users = { demo: 'demo-password-1', eve: 'eve-password-2' };

interface Answered {
  method: string;
  path: string;
  user: string;
  status: number;
  replayed: boolean;
  /** The policies the answer's RateLimit field names. */
  policies: string[];
  /** Its RateLimit-Policy field. */
  declared: string;
}

function readBody(req: IncomingMessage): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => resolve(Buffer.concat(chunks)));
    req.on('error', reject);
  });
}

/** The `sub` of a bearer token (whose quota a request counts against), or `-`. */
function userOf(authorization: string | undefined): string {
  try {
    return JSON.parse(Buffer.from(authorization!.split('.')[1]!, 'base64url').toString()).sub ?? '-';
  } catch {
    return '-';
  }
}

/** A proxy in front of `target` that records every answer. */
async function countingProxy(target: string): Promise<{ url: string; answered: Answered[]; close(): void }> {
  const answered: Answered[] = [];
  const server = createServer(async (req, res) => {
    const body = await readBody(req);
    const headers = Object.fromEntries(
      Object.entries(req.headers).filter(([k]) => !['host', 'connection', 'content-length'].includes(k)),
    ) as Record<string, string>;
    // A stream (GET /events never ends by itself) is passed on as it comes, and ends when the suite leaves it.
    const left = new AbortController();
    res.on('close', () => left.abort());
    const reply = await fetch(target + req.url, {
      method: req.method!,
      headers,
      ...(body.length ? { body: new Uint8Array(body) } : {}),
      signal: left.signal,
    });
    const policies = [...(reply.headers.get('ratelimit') ?? '').matchAll(/"([^"]+)"/g)].map((m) => m[1]!);
    answered.push({
      method: req.method!,
      path: req.url!.split('?')[0]!,
      user: userOf(req.headers.authorization),
      status: reply.status,
      replayed: reply.headers.get('idempotent-replayed') === 'true',
      policies,
      declared: reply.headers.get('ratelimit-policy') ?? '',
    });
    const out = [...reply.headers].filter(([k]) => !['connection', 'content-length', 'content-encoding'].includes(k));
    res.writeHead(reply.status, Object.fromEntries(out));
    if (reply.body)
      Readable.fromWeb(reply.body)
        .on('error', () => res.destroy())
        .pipe(res);
    else res.end();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  return { url: `http://127.0.0.1:${port}`, answered, close: () => server.close() };
}

/** Runs `jes-conformance` with `args`; resolves to its wall time, stdout and stderr. */
function conformance(args: string[]): Promise<{ ms: number; stdout: string; stderr: string }> {
  const started = performance.now();
  const child = spawn(process.execPath, ['conformance/bin/jes-conformance.js', ...args], { cwd: root });
  let stdout = '';
  let stderr = '';
  child.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
  return new Promise((resolve) =>
    child.once('exit', () => resolve({ ms: performance.now() - started, stdout, stderr })),
  );
}

async function measure(secondUser: boolean): Promise<string> {
  const dir = mkdtempSync(join(tmpdir(), 'jes-bench-conformance-'));
  const server = await startProcess('jes server (defaults)', node(serverCli), {
    PORT: '0',
    JES_DATA_DIR: join(dir, 'data'),
    JES_USERS: usersSetting(users),
    LOG_LEVEL: 'warn',
  });
  const proxy = await countingProxy(server.url);
  try {
    const run = await conformance([
      '--base-url',
      proxy.url,
      '--username',
      'demo',
      '--password',
      users.demo,
      ...(secondUser ? ['--second-user', `eve:${users.eve}`] : []),
    ]);
    const waits = [...run.stderr.matchAll(/^waiting (\d+) s for the rate limit (.*)$/gm)];
    const waited = (ahead: boolean) =>
      waits.filter(([, , why]) => why!.startsWith('"') === ahead).reduce((s, [, n]) => s + Number(n), 0);
    const { answered } = proxy;
    const starts = answered.filter((a) => a.method === 'POST' && /^\/problem\/[^/]+$/.test(a.path) && a.status === 200);
    const uploads = answered.filter((a) => a.method === 'POST' && a.path === '/data_file');
    const submit = new Map<string, number>();
    // What the policy counts: a start or an upload that started a job or stored a file (not a refusal or replay).
    const started = (a: Answered) => !a.replayed && (a.path === '/data_file' ? a.status === 201 : a.status === 200);
    for (const a of answered.filter((a) => a.policies.includes('submit') && started(a)))
      submit.set(a.user, (submit.get(a.user) ?? 0) + 1);
    const most = Math.max(...submit.values());
    const policy = answered.map((a) => /"submit"; *q=(\d+); *w=(\d+)/.exec(a.declared)).find(Boolean);
    const [quota, window] = [Number(policy?.[1]), Number(policy?.[2])];
    const closing = run.stdout.trim().split('\n').at(-1);
    return [
      `| ${secondUser ? 'with' : 'without'} | ${(run.ms / 1000).toFixed(1)} s | ${waited(true)} s + ${waited(false)} s`,
      `${answered.filter((a) => a.status === 429).length}`,
      `${starts.filter((a) => !a.replayed).length} (+${starts.filter((a) => a.replayed).length} replayed)`,
      `${uploads.filter((a) => a.status === 201 && !a.replayed).length} (+${uploads.filter((a) => a.status === 200).length} existing, +${uploads.filter((a) => a.replayed).length} replayed)`,
      [...submit].map(([user, n]) => `${user} ${n}`).join(', '),
      `${window * (Math.ceil(most / quota) - 1)} s (${quota} per ${window} s) | ${closing} |`,
    ].join(' | ');
  } finally {
    proxy.close();
    await server.stop();
    rmSync(dir, { recursive: true, force: true });
  }
}

console.log(
  '| second user | wall time | waited for rate limits (ahead of a request + after a 429) | 429s | jobs started | data files uploaded | submit-policy requests per user | least time the submit policy allows | result |',
);
console.log('|---|---|---|---|---|---|---|---|---|');
try {
  for (const secondUser of [true, false]) console.log(await measure(secondUser));
} finally {
  await stopAll();
}
