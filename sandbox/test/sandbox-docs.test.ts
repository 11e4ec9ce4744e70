// docs/sandbox.md against the real sandbox: its two walk-throughs run as written and print what the page
// shows, `npm run sandbox` starts it where SANDBOX_PORT says, every documented example of every operation
// comes back when `Prefer` asks for it, and the refusals the page lists are the sandbox's.
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { freePort, repoRoot, startChild } from '../../test/support/child-server.ts';
import { runBash } from '../../client/test/support/readme.ts';
import { type Sandbox, startSandbox } from '../src/server.ts';
import { readStream } from './support/event-streams.ts';
import { deref, type Node, loadContract, operations } from '../../test/contract/openapi-document.ts';
import { expectMilliseconds } from '../../test/support/durations.ts';

const page = readFileSync(join(repoRoot, 'docs/sandbox.md'), 'utf8');

/** The first fenced block of `language` after the line containing `marker`. */
function blockAfter(marker: string, language: string): string {
  const from = page.indexOf(marker);
  if (from < 0) throw new Error(`docs/sandbox.md has no "${marker}"`);
  const match = new RegExp('```' + language + '\\n([\\s\\S]*?)```').exec(page.slice(from));
  if (!match) throw new Error(`no ${language} block after "${marker}" in docs/sandbox.md`);
  return match[1]!;
}

/** Why the curl walk-through cannot run here, if it cannot. */
const missingTool = ['bash', 'curl', 'jq'].find((tool) => spawnSync(tool, ['--version']).error);
const skipCurl = missingTool ? ` (skipped: no ${missingTool} on PATH)` : '';

// The walk-throughs run on the stateful sandbox as the page starts it (`--seed 1 --speed 1`), each from a reset
// one (POST /sandbox/reset), so that its ids are the page's; the examples and refusals on a stateless one.
let sandbox: Sandbox;
let stateless: Sandbox;
beforeAll(async () => {
  [sandbox, stateless] = await Promise.all([startSandbox({ seed: 1, speed: 1 }), startSandbox({ stateless: true })]);
});
beforeEach(async () => {
  expect((await fetch(`${sandbox.url}/sandbox/reset`, { method: 'POST' })).status).toBe(204);
});
afterAll(() => Promise.all([sandbox?.close(), stateless?.close()]));

describe('docs/sandbox.md', () => {
  it.skipIf(skipCurl)(`the curl walk-through prints what the page shows${skipCurl}`, async () => {
    const script = blockAfter('tested: curl-walkthrough', 'sh').replace(
      'BASE=http://localhost:4010',
      `BASE=${sandbox.url}`,
    );
    const run = await runBash(script, {});
    expect(run.stderr).toBe('');
    expect(run.stdout).toBe(blockAfter('output: curl-walkthrough', 'text'));
  });

  it('the client example is sandbox/examples/client.ts verbatim, and prints what the page shows', async () => {
    expect(blockAfter('tested: client-walkthrough', 'ts')).toBe(
      readFileSync(join(repoRoot, 'sandbox/examples/client.ts'), 'utf8'),
    );
    const run = await runBash(`node --conditions=jes-source sandbox/examples/client.ts`, { JES_BASE_URL: sandbox.url });
    expect(run.stdout).toBe(blockAfter('output: client-walkthrough', 'text'));
  });

  it('npm run sandbox listens where SANDBOX_PORT says and prints its URL', async () => {
    const port = await freePort();
    const path = `${dirname(process.execPath)}:${process.env.PATH ?? ''}`;
    // npm and the sandbox it runs in a process group of their own, which stop() ends whole.
    const sandbox = await startChild(['npm', 'run', 'sandbox'], {
      env: { PATH: path, SANDBOX_PORT: String(port) },
      group: true,
      timeoutMs: 30_000,
    });
    try {
      expect(sandbox.url).toBe(`http://127.0.0.1:${port}`);
      expect((await fetch(`${sandbox.url}/healthz`)).status).toBe(200);
    } finally {
      await sandbox.stop();
    }
  });
});

/** A request each operation accepts: the documented example ids and bodies, any bearer token. */
function validRequest(doc: Node, op: ReturnType<typeof operations>[number]): { path: string; init: RequestInit } {
  const path = op.path.replace(
    /\{([^}]+)\}/g,
    (_, name: string) => op.parameters.find((p) => p.name === name)!.example,
  );
  const headers: Record<string, string> =
    op.operation.security?.length === 0 ? {} : { authorization: 'Bearer anything' };
  const media = deref(doc, op.operation.requestBody)?.content ?? {};
  if (media['application/json']) {
    const example = Object.values<Node>(media['application/json'].examples)[0]!;
    return {
      path,
      init: {
        method: op.method,
        headers: { ...headers, 'content-type': 'application/json' },
        body: JSON.stringify(deref(doc, example)!.value),
      },
    };
  }
  if (media['multipart/form-data']) {
    const form = new FormData();
    for (const [name, value] of Object.entries<string>(
      Object.values<Node>(media['multipart/form-data'].examples)[0]!.value,
    ))
      form.set(name, name === 'file' ? new Blob([value]) : value);
    return { path, init: { method: op.method, headers, body: form } };
  }
  return { path, init: { method: op.method, headers } };
}

/**
 * True when the operation's example request goes to another operation: the templated /problem/{problem_id} filled
 * with `maxcut` is /problem/maxcut, whose own operation answers first (contract 1.5.0), without getProblem's 404.
 */
function shadowed(doc: Node, op: ReturnType<typeof operations>[number], status: string): boolean {
  const { path } = validRequest(doc, op);
  const other = operations(doc).find((o) => o !== op && o.method === op.method && o.path === path);
  return other !== undefined && !(status in other.operation.responses);
}

describe('Prefer in the sandbox', () => {
  const doc = loadContract();
  const cases = operations(doc).flatMap((op) =>
    Object.entries<Node>(op.operation.responses).flatMap(([status, raw]) => {
      if (shadowed(doc, op, status)) return [];
      const examples = Object.entries<Node>(
        deref(doc, raw)!.content?.[Object.keys(deref(doc, raw)!.content ?? {})[0] ?? '']?.examples ?? {},
      );
      return examples.map(([key, example]) => ({
        label: `${op.operation.operationId} ${status} ${key}`,
        op,
        status: Number(status),
        key,
        value: deref(doc, example)!.value,
      }));
    }),
  );

  it.each(cases)('Prefer: code=…, example=… answers $label', async ({ op, status, key, value }) => {
    const { path, init } = validRequest(doc, op);
    const res = await fetch(stateless.url + path, {
      ...init,
      headers: { ...(init.headers as Record<string, string>), prefer: `code=${status}, example=${key}` },
    });
    expect(res.status).toBe(status);
    if (res.headers.get('content-type') === 'text/event-stream') {
      // A stream's example is its events, sent as a stream (a job's closes after its `end`, GET /events stays open).
      const read = await readStream(res, ({ events }) => events.length === value.length);
      expect(read.events).toEqual(value);
      return;
    }
    const body = await res.json();
    expect(body).toEqual(value);
    // Durations to the millisecond, as the reference server gives them (issue 13).
    expectMilliseconds(body);
  });
});

it("getProblem's 404 example is what an unknown use case gets, but for its request id", async () => {
  const doc = loadContract();
  const example = deref(doc, doc.components.examples.ProblemNotFound)!.value;
  const res = await fetch(`${stateless.url}${example.instance}`, { headers: { authorization: 'Bearer anything' } });
  expect([res.status, await res.json()]).toEqual([404, { ...example, request_id: expect.any(String) }]);
});

describe('what the sandbox refuses', () => {
  const send = (path: string, init: RequestInit = {}) =>
    fetch(stateless.url + path, init).then(async (res) => ({
      status: res.status,
      headers: res.headers,
      body: await res.json(),
    }));
  const bearer = { authorization: 'Bearer anything' };
  const json = { ...bearer, 'content-type': 'application/json' };

  it('the refusals in the table of docs/sandbox.md', async () => {
    const none = await send('/job');
    expect([none.status, none.body.code, none.headers.get('www-authenticate')]).toEqual([
      401,
      'missing_token',
      'Bearer realm="jes"',
    ]);
    expect((await send('/job', { headers: { authorization: 'Basic YTpi' } })).body.code).toBe('invalid_token');
    const wrong = await send('/problem/maxcut', {
      method: 'POST',
      headers: json,
      body: '{"num_nodes": "3", "adj_matrix": [[0]]}',
    });
    expect([wrong.status, wrong.body.code, wrong.body.errors[0].pointer]).toEqual([
      400,
      'invalid_request',
      '/num_nodes',
    ]);
    expect(wrong.headers.get('sl-violations')).toContain('num_nodes');
    const crossed = await send('/problem/maxcut', {
      method: 'POST',
      headers: json,
      body: '{"num_variables": 1, "q_matrix": [[-1]]}',
    });
    expect([crossed.status, crossed.body.code, crossed.body.errors[0].pointer]).toEqual([400, 'invalid_request', '/']);
    expect((await send('/job?limit=0', { headers: bearer })).body.errors[0].pointer).toBe('/query/limit');
    expect(
      (await send('/problem/maxcut', { method: 'POST', headers: json, body: '{"num_nodes": 3,' })).body,
    ).toMatchObject({ status: 400, code: 'malformed_json' });
    expect(
      (
        await send('/problem/maxcut', {
          method: 'POST',
          headers: { ...bearer, 'content-type': 'text/plain' },
          body: 'x',
        })
      ).body,
    ).toMatchObject({ status: 415, code: 'unsupported_media_type' });
    const big = await send('/problem/maxcut', { method: 'POST', headers: json, body: ' '.repeat(4_194_304) });
    expect(big.body).toMatchObject({ status: 413, code: 'payload_too_large', max_bytes: 4_194_304 });
    expect(
      (
        await send('/login', {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: ' '.repeat(65_536),
        })
      ).body,
    ).toMatchObject({ status: 413, max_bytes: 65_536 });
    expect((await send('/nowhere', { headers: bearer })).body).toMatchObject({ status: 404, code: 'not_found' });
    const method = await send('/job/K7Q2M9X4TB1R', { method: 'PUT', headers: bearer });
    expect([method.status, method.body.code, method.headers.get('allow')]).toEqual([
      405,
      'method_not_allowed',
      'GET, DELETE',
    ]);
    for (const answer of [none, wrong, big, method])
      expect(answer.headers.get('x-request-id')).toBe(answer.body.request_id);
  });
});

it('the stateful sandbox refuses a token it did not give, as the table of docs/sandbox.md says', async () => {
  const res = await fetch(`${sandbox.url}/job`, { headers: { authorization: 'Bearer anything' } });
  expect([res.status, (await res.json()).code]).toEqual([401, 'invalid_token']);
  expect(res.headers.get('www-authenticate')).toMatch(/^Bearer realm="jes", error="invalid_token"/);
});
