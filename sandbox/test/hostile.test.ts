// The sandbox against hostile requests (the security review's, and the edge rules it shares with the reference
// server): it never dies, routes then authenticates before it reads a body, refuses empty query values, and
// answers what Node refuses with a problem. The bodies themselves are in hostile-bodies.test.ts. Every answer
// is checked against the contract (support/hostile-requests.ts).
import { connect } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Sandbox } from '../src/server.ts';
import { deref } from '../../test/contract/openapi-document.ts';
import { node, sandboxCli, startChild } from '../../test/support/child-server.ts';
import { bearer, doc, graph, json, send, type Sent, startedSandbox, validate } from './support/hostile-requests.ts';

let sandbox: Sandbox;
let call: Awaited<ReturnType<typeof startedSandbox>>['call'];
beforeAll(async () => ({ sandbox, call } = await startedSandbox()));
afterAll(() => sandbox?.close());

describe('the sandbox never dies', () => {
  it('regression: a property name past U+00FF answers 400 instead of crashing the sandbox (ERR_INVALID_CHAR writing sl-violations)', async () => {
    for (const name of ['Ā', '😀', '\u007f', 'é']) {
      const answer = await call('POST', '/problem/maxcut', {
        headers: json,
        body: JSON.stringify({ num_nodes: 1, adj_matrix: [[0]], [name]: 1 }),
      });
      expect([answer.status, answer.body.code]).toEqual([400, 'invalid_request']);
      // Prism's account stays valid JSON, in printable ASCII only, and still names the member.
      const violations = answer.headers['sl-violations'] as string;
      expect(violations).toMatch(/^[\x20-\x7e]+$/);
      expect(JSON.stringify(JSON.parse(violations))).toContain(JSON.stringify(name).slice(1, -1));
    }
    expect((await call('GET', '/healthz')).status).toBe(200);
  });

  it('regression: npm run sandbox (sandbox/src/cli.ts) survives the request that killed it, and logs an unhandled rejection or exception instead of exiting', async () => {
    // Injected once the sandbox says it listens: a rejection nobody handles and an exception nobody catches.
    const inject =
      "const log = console.log; console.log = (...a) => { log(...a); if (String(a[0]).includes('listening on')) setImmediate(() => { Promise.reject(new Error('injected rejection')); setImmediate(() => { throw new Error('injected exception'); }); }); };";
    // Stateless: the request below carries a token of its own making.
    const sandbox = await startChild(
      node(`--import=data:text/javascript,${encodeURIComponent(inject)}`, sandboxCli, '--stateless'),
      {
        env: { SANDBOX_PORT: '0' },
      },
    );
    const { url, output } = sandbox;
    try {
      const crash = await send(url, 'POST', '/problem/maxcut', {
        headers: json,
        body: '{"num_nodes": 1, "adj_matrix": [[0]], "Ā": 1}',
      });
      expect(crash.status).toBe(400);
      expect((await send(url, 'GET', '/healthz')).status).toBe(200);
      expect(output()).toContain('injected rejection');
      expect(output()).toContain('injected exception');
      expect(sandbox.alive(), output()).toBe(true);
    } finally {
      await sandbox.stop();
    }
  });

  it('regression: a path or query with a malformed percent escape answers 4xx, not 500 (URI malformed in Prism)', async () => {
    for (const path of [
      '/job/%E0%A4%A',
      '/job/%ZZ',
      '/data_file/%00',
      '//job',
      '/job?limit=%ZZ',
      '/job?status=%E0%A4%A',
    ]) {
      const answer = await call('GET', path, { headers: bearer });
      expect(answer.status, path).toBeGreaterThanOrEqual(400);
      expect(answer.status, path).toBeLessThan(500);
    }
  });
});

describe('route, then authenticate, then read the body', () => {
  it('routing first, then a secured operation without Authorization answers 401 missing_token before its body is read (not 413, 400 or 415)', async () => {
    const bodies: Sent[] = [
      { headers: { 'content-type': 'application/json' }, body: ' '.repeat(5 * 1024 * 1024) },
      { headers: { 'content-type': 'application/json' }, body: '{"num_nodes": 3,' },
      { headers: { 'content-type': 'application/json; charset=latin1' }, body: graph },
      { headers: { 'content-type': 'application/json', 'content-encoding': 'zstd' }, body: graph },
      { headers: { 'content-type': 'application/json', authorization: '' }, body: graph },
    ];
    const example = deref(
      doc,
      deref(doc, doc.components.responses.Unauthorized)!.content['application/problem+json'].examples.missing_token,
    )!.value;
    for (const sent of bodies) {
      const answer = await call('POST', '/problem/maxcut', sent);
      expect([answer.status, answer.body.code, answer.headers['www-authenticate']]).toEqual([
        401,
        'missing_token',
        'Bearer realm="jes"',
      ]);
      expect(Object.keys(answer.body).sort()).toEqual(Object.keys(example).sort());
      expect(answer.body.instance).toBe('/problem/maxcut');
    }
    const uploaded = await call('POST', '/data_file', {
      headers: { 'content-type': 'multipart/form-data; boundary=x' },
      body: '--x\r\nbroken',
    });
    expect([uploaded.status, uploaded.body.code]).toEqual([401, 'missing_token']);
    // Routing comes before: no token needed for a 404 or a 405, whatever the body.
    expect(
      (await call('POST', '/nowhere', { headers: { 'content-type': 'application/json' }, body: '{' })).body.code,
    ).toBe('not_found');
    const method = await call('DELETE', '/job', { body: ' '.repeat(5 * 1024 * 1024) });
    expect([method.status, method.headers.allow]).toEqual([405, 'GET']);
    // The public operation and a request with a token read their bodies: too large is still 413.
    const login = await call('POST', '/login', {
      headers: { 'content-type': 'application/json' },
      body: ' '.repeat(65_536),
    });
    expect([login.status, login.body.max_bytes]).toEqual([413, 65_536]);
    expect((await call('POST', '/problem/maxcut', { headers: json, body: ' '.repeat(5 * 1024 * 1024) })).status).toBe(
      413,
    );
  });

  it('a malformed Authorization answers 401 invalid_token, also before the body is read', async () => {
    for (const authorization of ['Basic YTpi', 'Bearer', 'Bearer a b']) {
      const answer = await call('POST', '/problem/maxcut', {
        headers: { authorization, 'content-type': 'application/json' },
        body: ' '.repeat(5 * 1024 * 1024),
      });
      expect([answer.status, answer.body.code]).toEqual([401, 'invalid_token']);
      expect(answer.headers['www-authenticate']).toMatch(/^Bearer realm="jes", error="invalid_token"/);
    }
  });
});

describe('query values', () => {
  it('an empty query value answers 400 invalid_request with its pointer, as the reference server does', async () => {
    const cases = [
      ...['/job', '/data_file'].flatMap((path) =>
        ['starting_after', 'status', 'problem_id', 'limit'].map((name) => ['GET', `${path}?${name}=`, name]),
      ),
      ['POST', '/problem/maxcut?solver=', 'solver'],
      ['POST', '/problem/maxcut?time_limit_seconds=', 'time_limit_seconds'],
      ['GET', '/job?limit=5&starting_after=', 'starting_after'],
    ] as const;
    for (const [method, path, name] of cases) {
      const answer = await call(method, path, method === 'POST' ? { headers: json, body: graph } : { headers: bearer });
      expect([path, answer.status, answer.body.code]).toEqual([path, 400, 'invalid_request']);
      expect(answer.body.errors.map((e: { pointer: string }) => e.pointer)).toContain(`/query/${name}`);
    }
    expect((await call('GET', '/job?limit=5&status=RUNNING', { headers: bearer })).status).toBe(200);
  });

  it('a query parameter the operation does not have answers 400 where the operation documents a 400, as the reference server does', async () => {
    for (const path of [
      '/job?x=1',
      '/job?LIMIT=5',
      '/data_file?limit=5&page=2',
      '/healthz?verbose',
      '/job/K7Q2M9X4TB1R?x=',
      '/problem?x=1',
    ]) {
      const answer = await call('GET', path, { headers: bearer });
      const name = /[?&]([^=&]+)=?[^=&]*$/.exec(path)![1];
      expect([path, answer.status, answer.body.code, answer.body.errors?.[0]?.pointer]).toEqual([
        path,
        400,
        'invalid_request',
        `/query/${name}`,
      ]);
    }
  });
});

describe('found by the fuzz test', () => {
  /** Writes `raw` on a socket of its own; resolves with everything the sandbox sent back before it closed. */
  const rawExchange = (raw: string) =>
    new Promise<string>((resolve, reject) => {
      const { port } = new URL(sandbox.url);
      const socket = connect(Number(port), '127.0.0.1', () => socket.write(raw));
      let text = '';
      socket.on('data', (chunk) => (text += chunk.toString()));
      socket.on('close', () => resolve(text));
      socket.on('error', reject);
    });

  it('answers what Node refuses before the sandbox (malformed HTTP, headers over 16 KiB, no Host) with a problem, not a bare status line', async () => {
    for (const [raw, status, code] of [
      ['GET /healthz HTTP/1.1\r\nHost x\r\n\r\n', 400, 'invalid_request'],
      [`GET /healthz HTTP/1.1\r\nHost: x\r\nX-Big: ${'a'.repeat(20_000)}\r\n\r\n`, 431, 'headers_too_large'],
      ['GET /healthz HTTP/1.1\r\nConnection: close\r\n\r\n', 400, 'invalid_request'],
    ] as const) {
      const [head = '', rest = ''] = (await rawExchange(raw)).split('\r\n\r\n');
      // The body whole or in one chunk (Transfer-Encoding: chunked).
      const problem = JSON.parse(rest.slice(rest.indexOf('{'), rest.lastIndexOf('}') + 1));
      expect(head).toMatch(new RegExp(`^HTTP/1\\.1 ${status} `));
      expect(head).toMatch(/\r\ncontent-type: application\/problem\+json/i);
      expect(validate({ $ref: '#/components/schemas/Problem' }, problem)).toEqual([]);
      expect(problem).toMatchObject({ status, code });
    }
  });

  it('takes an absolute-form request target as its path', async () => {
    const [head = ''] = (
      await rawExchange(`GET ${sandbox.url}/healthz HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n`)
    ).split('\r\n\r\n');
    expect(head).toMatch(/^HTTP\/1\.1 200 /);
  });

  it('answers with the contract examples whatever Prefer asks of Prism (dynamic=true made it invent bodies)', async () => {
    const answer = await call('GET', '/job', { headers: { ...bearer, prefer: 'dynamic=true' } });
    expect(answer.status).toBe(200);
    expect(answer.body).toEqual((await call('GET', '/job', { headers: bearer })).body);
  });
});
