// Every error the server can answer, each as an RFC 9457 problem with its documented code (responses are
// also validated against the contract by the server itself in tests).
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { expectProblem } from './support/problems.ts';
import { Client, sixNodes, startTestServer } from './support/server.ts';
import { sharedServer } from './support/shared-server.ts';

const jes = sharedServer();

describe('400', () => {
  it('malformed_json for a body that is not JSON', async () => {
    expectProblem(
      await jes.alice.request('POST', '/problem/maxcut', {
        body: '{"num_nodes": 6,',
        headers: { 'content-type': 'application/json' },
      }),
      400,
      'malformed_json',
    );
  });
  it('invalid_request, not malformed_json, for a body that is JSON but not an object (found by the conformance suite)', async () => {
    for (const body of ['42', 'null', '"text"', 'true']) {
      for (const path of ['/problem/maxcut', '/login']) {
        const reply = await jes.alice.request('POST', path, { body, headers: { 'content-type': 'application/json' } });
        expectProblem(reply, 400, 'invalid_request');
        expect(reply.body.errors).toEqual([{ pointer: '/', detail: 'must be object' }]);
      }
    }
  });
  it('invalid_request with pointers for a body or query that breaks the contract', async () => {
    const body = await jes.alice.post('/problem/maxcut', { num_nodes: '6', adj_matrix: sixNodes.adj_matrix });
    expectProblem(body, 400, 'invalid_request');
    expect(body.body.errors.map((e: any) => e.pointer)).toContain('/num_nodes');
    const query = await jes.alice.get('/job?limit=0');
    expectProblem(query, 400, 'invalid_request');
    expect(query.body.errors[0].pointer).toBe('/query/limit');
    expectProblem(await jes.alice.get('/job/not-a-job-id'), 400, 'invalid_request');
    expectProblem(await jes.alice.post('/login', { username: 'alice' }), 400, 'invalid_request');
  });
  it('invalid_request, not a server error, for a body the database could not store', async () => {
    const file = (await jes.alice.upload('4 1\n1 2 1\n', 'tiny.txt')).body.data_file_identifier;
    const seed = await jes.alice.post('/problem/maxcut', {
      data_file_identifier: file,
      solvers: [{ name: 'local-search', params: { seed: 2 ** 40 } }],
    });
    expectProblem(seed, 400, 'invalid_request');
    expect(seed.body.errors[0].pointer).toBe('/solvers/0/params/seed');
    const twice = await jes.alice.post('/problem/maxcut', {
      data_file_identifier: file,
      solvers: [{ name: 'exact' }, { name: 'exact' }],
    });
    expectProblem(twice, 400, 'invalid_request');
    expect(twice.body.errors[0].pointer).toBe('/solvers/1/name');
    const form = new FormData();
    form.set('problem_id', 'maxcut');
    form.set('name', 'no-file.txt');
    const noFile = await jes.alice.request('POST', '/data_file', { body: form });
    expectProblem(noFile, 400, 'invalid_request');
    expect(noFile.body.errors[0].pointer).toBe('/file');
  });
});

describe('found by the fuzz test', () => {
  it('answers limit=1e400 with 400 (the validator let it through as Infinity, and the database answered 500)', async () => {
    for (const path of ['/job?limit=1e400', '/data_file?limit=1e400', '/job?limit=-1e400']) {
      const reply = await jes.alice.get(path);
      expectProblem(reply, 400, 'invalid_request');
      expect(reply.body.errors[0].pointer).toBe('/query/limit');
    }
  });
  it('answers time_limit_seconds=1e309 with 400 (the validator let it through as Infinity: a solver run without end)', async () => {
    for (const value of ['1e309', '-1e309', '3600.5', '0']) {
      const reply = await jes.alice.post(`/problem/maxcut?time_limit_seconds=${value}`, sixNodes);
      expectProblem(reply, 400, 'invalid_request');
      expect(reply.body.errors, value).toEqual([expect.objectContaining({ pointer: '/query/time_limit_seconds' })]);
    }
    expect((await jes.alice.post('/problem/maxcut?solver=exact&time_limit_seconds=3600', sixNodes)).status).toBe(200);
  });
  it('gives a problem an instance that is a URI reference even when the path is not one (/job/%zz)', async () => {
    const reply = await jes.alice.get('/job/%zz');
    expectProblem(reply, 400, 'invalid_request');
    expect(reply.body.instance).toBe('/job/%25zz');
  });
});

describe('401', () => {
  it('missing_token without a token, with a bare challenge', async () => {
    const reply = await jes.anonymous.get('/job');
    expectProblem(reply, 401, 'missing_token');
    expect(reply.headers.get('www-authenticate')).toBe('Bearer realm="jes"');
  });
  it('invalid_token for a token that is not ours', async () => {
    const reply = await jes.anonymous.get('/job', { authorization: 'Bearer not.a.token' });
    expectProblem(reply, 401, 'invalid_token');
    expect(reply.headers.get('www-authenticate')).toMatch(
      /^Bearer realm="jes", error="invalid_token", error_description="/,
    );
  });
  it('invalid_credentials alike for a wrong password and an unknown user', async () => {
    const wrong = await jes.anonymous.post('/login', { username: 'alice', password: 'nope' });
    const unknown = await jes.anonymous.post('/login', { username: 'mallory', password: 'nope' });
    expectProblem(wrong, 401, 'invalid_credentials');
    expectProblem(unknown, 401, 'invalid_credentials');
    expect(unknown.body.detail).toBe(wrong.body.detail);
    expect(wrong.headers.get('www-authenticate')).toBe('Bearer realm="jes"');
  });
});

describe('404', () => {
  it('not_found for a path with no operation', async () => {
    expectProblem(await jes.alice.get('/jobs'), 404, 'not_found');
  });
  it('problem_not_found, job_not_found, data_file_not_found, solver_not_found', async () => {
    expectProblem(await jes.alice.get('/problem/tsp'), 404, 'problem_not_found');
    expectProblem(await jes.alice.post('/problem/tsp', sixNodes), 404, 'problem_not_found');
    expectProblem(await jes.alice.get('/job/ZZZZZZZZZZZZ'), 404, 'job_not_found');
    expectProblem(await jes.alice.get('/job/ZZZZZZZZZZZZ/output'), 404, 'job_not_found');
    expectProblem(await jes.alice.post('/job/ZZZZZZZZZZZZ/cancel'), 404, 'job_not_found');
    const missing = '0'.repeat(40);
    expectProblem(await jes.alice.get(`/data_file/${missing}`), 404, 'data_file_not_found');
    expectProblem(await jes.alice.request('DELETE', `/data_file/${missing}`), 404, 'data_file_not_found');
    expectProblem(
      await jes.alice.post('/problem/maxcut', { data_file_identifier: missing }),
      404,
      'data_file_not_found',
    );
    expectProblem(await jes.alice.post('/problem/maxcut?solver=qaoa', sixNodes), 404, 'solver_not_found');
  });
});

describe('405, 409, 413, 415, 422', () => {
  it('method_not_allowed with Allow', async () => {
    const reply = await jes.alice.request('PUT', '/job/ZZZZZZZZZZZZ');
    expectProblem(reply, 405, 'method_not_allowed');
    expect(reply.headers.get('allow')).toMatch(/GET/);
  });

  it('data_file_in_use while a job that has not ended uses the file', async () => {
    const id = (await jes.alice.upload('40 1\n1 2 1\n', 'small.txt')).body.data_file_identifier;
    const job = await jes.alice.start({
      data_file_identifier: id,
      solvers: [{ name: 'local-search' }],
      time_limit_seconds: 30,
    });
    expectProblem(await jes.alice.request('DELETE', `/data_file/${id}`), 409, 'data_file_in_use');
    await jes.alice.post(`/job/${job}/cancel`);
    await jes.alice.waitFor(job);
    expect((await jes.alice.request('DELETE', `/data_file/${id}`)).status).toBe(204);
    expectProblem(await jes.alice.get(`/data_file/${id}`), 404, 'data_file_not_found');
  });

  it('payload_too_large at 4 MiB, counted in bytes; just under is accepted', async () => {
    const limit = 4 * 1024 * 1024;
    const n = 1000;
    const matrix = `[${Array.from({ length: n }, () => `[${new Array(n).fill(0).join(',')}]`).join(',')}]`;
    const json = (bytes: number) => {
      const head = `{"num_nodes":${n},"adj_matrix":${matrix}`;
      return head + ' '.repeat(bytes - head.length - 1) + '}';
    };
    const under = json(limit - 1);
    expect(Buffer.byteLength(under)).toBe(limit - 1);
    const accepted = await jes.alice.request('POST', '/problem/maxcut?solver=local-search&time_limit_seconds=0.1', {
      body: under,
      headers: { 'content-type': 'application/json' },
    });
    expect(accepted.status).toBe(200);
    const rejected = await jes.alice.request('POST', '/problem/maxcut', {
      body: json(limit),
      headers: { 'content-type': 'application/json' },
    });
    expectProblem(rejected, 413, 'payload_too_large');
    expect(rejected.body.max_bytes).toBe(limit);
    await jes.alice.waitFor(accepted.body.job);
  });

  it('unsupported_media_type for a body that is not JSON', async () => {
    expectProblem(
      await jes.alice.request('POST', '/problem/maxcut', {
        body: JSON.stringify(sixNodes),
        headers: { 'content-type': 'text/plain' },
      }),
      415,
      'unsupported_media_type',
    );
  });

  it('invalid_input with pointers for a matrix that is wrong for max-cut', async () => {
    const short = await jes.alice.post('/problem/maxcut', {
      num_nodes: 3,
      adj_matrix: [
        [0, 1, 2],
        [1, 0],
        [2, 0, 0],
      ],
    });
    expectProblem(short, 422, 'invalid_input');
    expect(short.body.errors[0].pointer).toBe('/adj_matrix/1');
    const asymmetric = await jes.alice.post('/problem/maxcut', {
      num_nodes: 2,
      adj_matrix: [
        [0, 1],
        [2, 0],
      ],
    });
    expectProblem(asymmetric, 422, 'invalid_input');
    expectProblem(
      await jes.alice.post('/problem/maxcut', {
        num_nodes: 3,
        adj_matrix: [
          [0, 1],
          [1, 0],
        ],
      }),
      422,
      'invalid_input',
    );
    // 1e400 is a JSON number no double can hold: the contract's `type: number` refuses it (400).
    const huge = await jes.alice.request('POST', '/problem/maxcut', {
      body: '{"num_nodes":2,"adj_matrix":[[0,1e400],[1e400,0]]}',
      headers: { 'content-type': 'application/json' },
    });
    expectProblem(huge, 400, 'invalid_request');
    expect(huge.body.errors[0].pointer).toBe('/adj_matrix/0/1');
  });

  it('data_file_invalid when starting from a file that failed validation', async () => {
    const id = (await jes.alice.upload('not a graph\n', 'bad.txt')).body.data_file_identifier;
    await jes.alice.validated(id);
    expectProblem(await jes.alice.post('/problem/maxcut', { data_file_identifier: id }), 422, 'data_file_invalid');
  });
});

describe('429 and 503 (servers of their own)', () => {
  it('counts on submit only the starts and uploads that start a job or store a file; every one counts on default', async () => {
    // A conformance run against a default server spent minutes waiting: its refused bodies used up submit's quota.
    const limited = await startTestServer({ JES_RATE_LIMITS: 'submit=3/60,default=14/60', JES_WORKERS: '0' });
    try {
      const client = await new Client(limited.url).login('alice');
      const refused = await client.post('/problem/maxcut', { num_nodes: 2, adj_matrix: [[0, 1]] });
      expectProblem(refused, 422, 'invalid_input');
      expect(refused.headers.get('ratelimit-policy')).toMatch(/"default";\s*q=14;\s*w=60.*"submit";\s*q=3;\s*w=60/);
      const key = { 'idempotency-key': 'counted-once', 'content-type': 'application/json' };
      const body = JSON.stringify(sixNodes);
      expect((await client.request('POST', '/problem/maxcut', { body, headers: key })).status).toBe(200); // 1
      expect((await client.request('POST', '/problem/maxcut', { body, headers: key })).status).toBe(200); // a replay
      expect((await client.upload('2 1\n1 2 5\n')).status).toBe(201); // 2
      expect((await client.upload('2 1\n1 2 5\n')).status).toBe(200); // stored already
      expect((await client.post('/problem/maxcut', sixNodes)).status).toBe(200); // 3
      expectProblem(await client.post('/problem/maxcut', sixNodes), 429, 'rate_limited');
      // default counted every request: seven so far, the eighth to fourteenth pass, the fifteenth is refused.
      for (let i = 0; i < 7; i++) expect((await client.get('/problem')).status).toBe(200);
      expectProblem(await client.get('/problem'), 429, 'rate_limited');
    } finally {
      await limited.close();
    }
  });

  it('rate_limited past a policy, with Retry-After and the IETF headers', async () => {
    const limited = await startTestServer({ JES_RATE_LIMITS: 'login=2/60,default=3/60', JES_WORKERS: '0' });
    try {
      const client = new Client(limited.url);
      await client.login('alice');
      const ok = await client.get('/problem');
      // Structured fields (RFC 9651): parameters may have a space after each ";".
      expect(ok.headers.get('ratelimit-policy')).toMatch(/^"default";\s*q=3;\s*w=60\b/);
      expect(ok.headers.get('ratelimit')).toMatch(/^"default";\s*r=2;\s*t=\d+/);
      await client.get('/problem');
      await client.get('/problem');
      const over = await client.get('/problem');
      expectProblem(over, 429, 'rate_limited');
      expect(Number(over.headers.get('retry-after'))).toBeGreaterThan(0);
      // login counts per client address and username: Bob's third attempt in the window is refused.
      await new Client(limited.url).login('bob');
      expect((await new Client(limited.url).post('/login', { username: 'bob', password: 'x' })).status).toBe(401);
      expectProblem(
        await new Client(limited.url).post('/login', { username: 'bob', password: 'x' }),
        429,
        'rate_limited',
      );
    } finally {
      await limited.close();
    }
  });

  it('too_many_active_jobs past the cap', async () => {
    const capped = await startTestServer({ JES_MAX_ACTIVE_JOBS: '2', JES_WORKERS: '0' });
    try {
      const client = await new Client(capped.url).login('alice');
      await client.start(sixNodes);
      await client.start(sixNodes);
      const over = await client.post('/problem/maxcut', sixNodes);
      expectProblem(over, 429, 'too_many_active_jobs');
      expect(over.headers.get('retry-after')).toBeTruthy();
      const bob = await new Client(capped.url).login('bob');
      expect((await bob.post('/problem/maxcut', sixNodes)).status).toBe(200);
    } finally {
      await capped.close();
    }
  });

  it('service_unavailable from /healthz when the database is gone', async () => {
    const broken = await startTestServer({ JES_WORKERS: '0' });
    const client = new Client(broken.url);
    // The versions are the package's and the contract's (the server said 1.0.0, written in its code, for both).
    const versionOf = (file: string) => /^\s*"?version"?: "?([\d.]+)/m.exec(readFileSync(file, 'utf8'))![1];
    expect((await client.get('/healthz')).body).toMatchObject({
      status: 'ok',
      environment: 'production',
      version: versionOf(join(import.meta.dirname, '../package.json')),
      contract_version: versionOf(join(import.meta.dirname, '../../openapi.yaml')),
    });
    await broken.db.close();
    expectProblem(await client.get('/healthz'), 503, 'service_unavailable');
    // The one 5xx the tests provoke on purpose.
    Client.serverErrors.splice(
      Client.serverErrors.findIndex((e) => e.startsWith('GET /healthz → 503')),
      1,
    );
    await broken.close().catch(() => {});
  });
});

describe('outside the contract', () => {
  it('serves the contract and the reference', async () => {
    expect((await jes.anonymous.get('/openapi.yaml')).body).toMatch(/^openapi: 3\.1\.0/);
    expect((await jes.anonymous.get('/docs')).body).toMatch(/<!DOCTYPE html>/);
  });
});
