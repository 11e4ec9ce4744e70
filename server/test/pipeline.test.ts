// The order of the pipeline: route first (404 and 405 need no token), then authenticate, then read the body. It
// used to authenticate first (GET /login without a token was 401, not 405) and to read and parse a 4 MiB body
// before refusing its missing token (issue 10).
import { connect } from 'node:net';
import { describe, expect, it } from 'vitest';
import { expectProblem } from './support/problems.ts';
import { rawRequest } from './support/raw-http.ts';
import { sharedServer } from './support/shared-server.ts';

const jes = sharedServer({ JES_WORKERS: '0' }, { users: [] });

describe('routing needs no token', () => {
  it('answers a method the path does not document with 405 and Allow, without a token', async () => {
    for (const [method, path, allow] of [
      ['GET', '/login', 'POST'],
      ['TRACE', '/job', 'GET'],
      ['PUT', '/problem/maxcut', 'GET, POST'],
      ['PUT', '/job/ZZZZZZZZZZZZ', 'GET, DELETE'],
      ['PATCH', '/data_file', 'GET, POST'],
    ]) {
      const reply = await rawRequest(jes.url, { method: method!, path: path! });
      expectProblem(reply, 405, 'method_not_allowed');
      expect(reply.headers.allow).toBe(allow);
    }
  });

  it('answers a path without an operation with 404, without a token', async () => {
    for (const path of ['/nope', '/jobs', '/job/ZZZZZZZZZZZZ/nope', '/problem/maxcut/extra'])
      expectProblem(await jes.anonymous.get(path), 404, 'not_found');
  });
});

describe('the request line (found by the fuzz test)', () => {
  it('takes an absolute-form target as its path (it answered 404), and refuses HTTP/1.1 without Host with a problem (it was an empty 400)', async () => {
    const exchange = (raw: string) =>
      new Promise<string>((resolve) => {
        const socket = connect(Number(new URL(jes.url).port), '127.0.0.1', () => socket.write(raw));
        let text = '';
        socket.on('data', (chunk) => (text += chunk.toString()));
        socket.on('close', () => resolve(text));
      });
    expect(await exchange(`GET ${jes.url}/healthz HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n`)).toMatch(
      /^HTTP\/1\.1 200 /,
    );
    const [head = '', body = ''] = (await exchange('GET /healthz HTTP/1.1\r\nConnection: close\r\n\r\n')).split(
      '\r\n\r\n',
    );
    expect(head).toMatch(/^HTTP\/1\.1 400 /);
    expect(JSON.parse(body)).toMatchObject({
      code: 'invalid_request',
      errors: [{ pointer: '/header/host', detail: 'is required' }],
    });
    expect(await exchange('GET /healthz HTTP/1.0\r\n\r\n')).toMatch(/^HTTP\/1\.1 200 /);
  });
});

describe('authentication comes before the body', () => {
  it('refuses an unauthenticated malformed or oversized job body with 401, not 400 or 413', async () => {
    const malformed = await jes.anonymous.request('POST', '/problem/maxcut', {
      body: '{"num_nodes": 6,',
      headers: { 'content-type': 'application/json' },
    });
    expectProblem(malformed, 401, 'missing_token');
    const oversized = await jes.anonymous.request('POST', '/problem/maxcut', {
      body: ' '.repeat(5 * 1024 * 1024),
      headers: { 'content-type': 'application/json' },
    });
    expectProblem(oversized, 401, 'missing_token');
    const upload = await jes.anonymous.request('POST', '/data_file', {
      body: '--x\r\nbroken',
      headers: { 'content-type': 'multipart/form-data; boundary=x' },
    });
    expectProblem(upload, 401, 'missing_token');
  });

  it('answers 401 before the body has been sent at all', async () => {
    // Headers announcing 4 MiB, then nothing: a server that reads the body first would wait for it forever.
    for (const [path, type] of [
      ['/problem/maxcut', 'application/json'],
      ['/data_file', 'multipart/form-data; boundary=x'],
    ]) {
      const reply = await rawRequest(jes.url, {
        method: 'POST',
        path: path!,
        headers: { 'content-type': type!, 'content-length': String(4 * 1024 * 1024 - 1) },
        holdBodyAfter: 0,
      });
      expectProblem(reply, 401, 'missing_token');
    }
  });

  it('still reads the login body (login needs no token) and refuses a bad one', async () => {
    expectProblem(
      await jes.anonymous.request('POST', '/login', {
        body: '{"username":',
        headers: { 'content-type': 'application/json' },
      }),
      400,
      'malformed_json',
    );
  });
});
