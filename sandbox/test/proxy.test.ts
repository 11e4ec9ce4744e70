// The validation proxy (issue 30 §7, as `prism proxy`): in front of the real reference server it changes nothing
// and reports what a client breaks; in front of a deliberately broken deployment (a small node:http server here)
// it reports what the deployment breaks, in sl-violations and the log, and `errors` turns that into a 502. Bodies
// stream through (an upload larger than what is checked arrives whole), hop-by-hop headers stay behind, and it
// reaches no other host and no path the contract lacks.
import { createServer, request, type IncomingHttpHeaders, type Server } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sixNodesEdgeList } from '../../client/test/support/graphs.ts';
import { freePort, type Started, startServer, users } from '../../client/test/support/processes.ts';
import { proxyLogLines } from '../src/proxy-log.ts';
import { type ProxiedExchange, startProxy } from '../src/proxy.ts';
import type { Proxy } from '../src/proxy.ts';

/** The broken deployment: a job that is a number and no X-Request-Id; an upload counted; /problem never answered. */
interface Broken {
  url: string;
  seen: { method: string; url: string; headers: IncomingHttpHeaders; bytes: number }[];
  server: Server;
}

async function startBroken(): Promise<Broken> {
  const seen: Broken['seen'] = [];
  const server = createServer((req, res) => {
    const entry = { method: req.method!, url: req.url!, headers: req.headers, bytes: 0 };
    seen.push(entry);
    req.on('data', (chunk: Buffer) => (entry.bytes += chunk.length));
    req.on('end', () => {
      if (req.url === '/problem') return; // never answered
      if (req.url?.endsWith('/output')) {
        // A JSON answer larger than what is checked: it passes whole, unchecked.
        res.writeHead(200, { 'content-type': 'application/json' });
        return res.end(JSON.stringify({ outputs: 'x'.repeat(3 * 1024 * 1024) }));
      }
      if (req.url === '/data_file' || req.url?.startsWith('/problem/')) {
        res.writeHead(201, { 'content-type': 'application/json', 'x-request-id': 'r1' });
        return res.end(JSON.stringify({ received: entry.bytes }));
      }
      res.writeHead(200, { 'content-type': 'application/json', connection: 'close, x-hop', 'x-hop': 'secret' });
      res.end(JSON.stringify({ job: 5 }));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${(server.address() as { port: number }).port}`, seen, server };
}

let reference: Started;
let broken: Broken;
const proxies: Proxy[] = [];
const exchanges: ProxiedExchange[] = [];
let toReference: string;
let toBroken: string;
let toBrokenErrors: string;

async function proxy(upstream: string, options: { errors?: boolean; upstreamTimeoutMs?: number } = {}) {
  const started = await startProxy({
    upstream,
    ...options,
    maxCheckedBytes: 1024 * 1024,
    onExchange: (e) => exchanges.push(e),
  });
  proxies.push(started);
  return started.url;
}

beforeAll(async () => {
  [reference, broken] = await Promise.all([startServer(), startBroken()]);
  toReference = await proxy(reference.url);
  toBroken = await proxy(broken.url);
  toBrokenErrors = await proxy(broken.url, { errors: true });
}, 60_000);
afterAll(async () => {
  await Promise.all(proxies.map((p) => p.close()));
  broken?.server.closeAllConnections();
  broken?.server.close();
  await reference?.stop();
});

const violations = (res: Response) => JSON.parse(res.headers.get('sl-violations') ?? '[]') as { location: unknown[] }[];
const lastExchange = () => exchanges.at(-1)!;

async function login(base: string): Promise<string> {
  const res = await fetch(`${base}/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ username: 'alice', password: users.alice }),
  });
  return ((await res.json()) as { access_token: string }).access_token;
}

describe('in front of the reference server', () => {
  it('answers what the server answers, and reports nothing when both sides keep the contract', async () => {
    const token = await login(toReference);
    const res = await fetch(`${toReference}/problem/maxcut?solver=exact`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: JSON.stringify({
        num_nodes: 2,
        adj_matrix: [
          [0, 1],
          [1, 0],
        ],
      }),
    });
    expect(res.status).toBe(200);
    expect(res.headers.get('sl-violations')).toBeNull();
    expect(res.headers.get('x-request-id')).toMatch(/./);
    expect(await res.json()).toMatchObject({ job: expect.any(String) });
    expect(lastExchange()).toMatchObject({ method: 'POST', status: 200, violations: [] });
  });

  it("reports a client's request that breaks the contract, and passes on the server's refusal unchanged", async () => {
    const token = await login(toReference);
    const res = await fetch(`${toReference}/problem/maxcut`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ num_nodes: 'two', adj_matrix: [[0]] }),
    });
    expect(res.status).toBe(400);
    expect(await res.json()).toMatchObject({ code: 'invalid_request' });
    expect(violations(res)).toContainEqual(expect.objectContaining({ location: ['request', 'body', 'num_nodes'] }));
    // The log explains the body by the shape it meant (max cut's), as the mock and the server do, not by QUBO's too.
    const logged = lastExchange().violations.map((v) => `${v.in} ${v.pointer}`);
    expect(logged).toContain('request /num_nodes');
    expect(logged).not.toContain('request /q_matrix');
  });

  it('passes an upload through to the server, which stores it', async () => {
    const token = await login(toReference);
    const form = new FormData();
    form.append('problem_id', 'maxcut');
    form.append('name', 'six-nodes');
    form.append('file', new Blob([sixNodesEdgeList]), 'six-nodes.txt');
    const res = await fetch(`${toReference}/data_file`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}` },
      body: form,
    });
    expect(res.status).toBe(201);
    expect(await res.json()).toMatchObject({ data_file_identifier: expect.stringMatching(/^[0-9a-f]{40}$/) });
    expect(res.headers.get('sl-violations')).toBeNull();
    expect(lastExchange().unchecked).toEqual(['request body not checked: multipart/form-data, not JSON']);
  });

  it('forwards Authorization as it is: a bad token is refused by the server, not the proxy', async () => {
    const res = await fetch(`${toReference}/job`, { headers: { authorization: 'Bearer not-a-token' } });
    expect(res.status).toBe(401);
    expect(await res.json()).toMatchObject({ code: 'invalid_token' });
    expect(lastExchange().answeredBy).toBeUndefined();
  });
});

describe('in front of a deployment that breaks the contract', () => {
  it('answers its status, headers and body unchanged, with each violation in sl-violations and the log', async () => {
    const res = await fetch(`${toBroken}/job/K7Q2M9X4TB1R`, { headers: { authorization: 'Bearer t' } });
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ job: 5 });
    const found = violations(res).map((v) => v.location);
    expect(found).toContainEqual(['response', 'body', 'job']);
    expect(found).toContainEqual(['response', 'header']);
    expect(proxyLogLines(new Date(0), lastExchange()).split('\n')).toEqual([
      '1970-01-01T00:00:00.000Z GET /job/K7Q2M9X4TB1R',
      '  ✖ response violates the contract: /job Response body property job must be object',
      "  ✖ response violates the contract: /header/x-request-id Response header must have required property 'x-request-id'",
      '  → 200 from the deployment',
    ]);
    // A header of that hop alone (named by Connection) stays behind.
    expect(res.headers.get('x-hop')).toBeNull();
  });

  it('with errors, answers 502 with a problem instead', async () => {
    const res = await fetch(`${toBrokenErrors}/job/K7Q2M9X4TB1R`, { headers: { authorization: 'Bearer t' } });
    expect(res.status).toBe(502);
    expect(res.headers.get('content-type')).toBe('application/problem+json');
    const body = (await res.json()) as { status: number; code: string; detail: string; request_id: string };
    expect(body).toMatchObject({ status: 502, code: 'bad_gateway', title: 'Bad gateway' });
    expect(body.detail).toContain('at odds with the contract');
    expect(res.headers.get('x-request-id')).toBe(body.request_id);
    expect(violations(res).map((v) => v.location)).toContainEqual(['response', 'body', 'job']);
  });

  it('with errors, refuses a request that breaks the contract before it reaches the deployment', async () => {
    const before = broken.seen.length;
    const res = await fetch(`${toBrokenErrors}/job/not-a-job-id`, { headers: { authorization: 'Bearer t' } });
    expect(res.status).toBe(400);
    expect(await res.json()).toMatchObject({ code: 'invalid_request', errors: [{ pointer: '/path/job_id' }] });
    expect(broken.seen.length).toBe(before);
  });

  it('with errors, refuses such a request whose body is larger than it checks, having read the rest', async () => {
    const res = await fetch(`${toBrokenErrors}/problem/maxcut?limit=1`, {
      method: 'POST',
      headers: { authorization: 'Bearer t', 'content-type': 'application/json' },
      body: JSON.stringify({ padding: 'z'.repeat(2 * 1024 * 1024) }),
    });
    expect(res.status).toBe(400);
    expect(await res.json()).toMatchObject({ errors: [{ pointer: '/query/limit' }] });
  });

  it('reports what the sandbox checks beside Prism: a path segment that does not decode, a query parameter the operation lacks', async () => {
    const res = await fetch(`${toBroken}/job/%ff?color=red`, { headers: { authorization: 'Bearer t' } });
    expect(res.status).toBe(200);
    const found = violations(res).map((v) => v.location);
    expect(found).toContainEqual(['request', 'path', 'job_id']);
    expect(found).toContainEqual(['request', 'query', 'color']);
  });

  it('passes on the headers but those of the hop, Host set to the deployment', async () => {
    // node:http, as fetch drops a Connection header.
    const { hostname, port } = new URL(toBroken);
    const headers = { authorization: 'Bearer as-is', connection: 'x-private', 'x-private': '1', 'x-kept': '2' };
    await new Promise((resolve, reject) =>
      request({ hostname, port, path: '/job/K7Q2M9X4TB1R', headers }, (res) => res.resume().on('end', resolve))
        .on('error', reject)
        .end(),
    );
    const forwarded = broken.seen.at(-1)!.headers;
    expect(forwarded.authorization).toBe('Bearer as-is');
    expect(forwarded['x-kept']).toBe('2');
    expect(forwarded['x-private']).toBeUndefined();
    expect(forwarded.host).toBe(new URL(broken.url).host);
    expect(forwarded.via).toMatch(/jes-sandbox$/);
  });

  it('streams an upload larger than it checks through whole, and says it was not checked', async () => {
    const size = 12 * 1024 * 1024;
    const chunk = new Uint8Array(64 * 1024).fill(0x61);
    let sent = 0;
    const body = new ReadableStream<Uint8Array>({
      pull(controller) {
        if (sent >= size) return controller.close();
        controller.enqueue(chunk);
        sent += chunk.length;
      },
    });
    const res = await fetch(`${toBroken}/data_file`, {
      method: 'POST',
      headers: { authorization: 'Bearer t', 'content-type': 'multipart/form-data; boundary=x' },
      body,
      duplex: 'half',
    } as RequestInit);
    expect(res.status).toBe(201);
    expect(await res.json()).toEqual({ received: size });
    expect(lastExchange().unchecked).toContainEqual(expect.stringMatching(/^request body not checked: multipart/));
  });

  it('passes on a JSON body larger than it checks, its head and the rest, both ways', async () => {
    const input = JSON.stringify({ num_nodes: 1, adj_matrix: [[0]], padding: 'y'.repeat(2 * 1024 * 1024) });
    const started = await fetch(`${toBroken}/problem/maxcut`, {
      method: 'POST',
      headers: { authorization: 'Bearer t', 'content-type': 'application/json' },
      body: input,
    });
    expect(await started.json()).toEqual({ received: Buffer.byteLength(input) });
    expect(lastExchange().unchecked).toContain('request body not checked: over 1048576 bytes');

    const output = await fetch(`${toBroken}/job/K7Q2M9X4TB1R/output`, { headers: { authorization: 'Bearer t' } });
    expect(((await output.json()) as { outputs: string }).outputs).toHaveLength(3 * 1024 * 1024);
    expect(lastExchange().unchecked).toContain('response body not checked: over 1048576 bytes');
  });
});

describe('when the deployment does not answer', () => {
  it('answers 502 with a problem when nothing listens there', async () => {
    const res = await fetch(`${await proxy(`http://127.0.0.1:${await freePort()}`)}/healthz`);
    expect(res.status).toBe(502);
    expect(await res.json()).toMatchObject({ status: 502, code: 'bad_gateway', title: 'Bad gateway' });
  });

  it('answers 502 when it stays silent past the timeout', async () => {
    const res = await fetch(`${await proxy(broken.url, { upstreamTimeoutMs: 200 })}/problem`, {
      headers: { authorization: 'Bearer t' },
    });
    expect(res.status).toBe(502);
    expect(((await res.json()) as { detail: string }).detail).toContain('no answer within 0.2 s');
  });
});

describe('no open relay', () => {
  /** A raw request with the target as given (fetch would make it a path). */
  const raw = (base: string, target: string) =>
    new Promise<number>((resolve, reject) => {
      const { hostname, port } = new URL(base);
      request({ hostname, port, path: target }, (res) => {
        res.resume();
        resolve(res.statusCode!);
      })
        .on('error', reject)
        .end();
    });

  it.each(['http://example.com/job', '/admin', '/job/../../etc/passwd', '//example.com/job'])(
    'does not forward %s',
    async (target) => {
      const before = broken.seen.length;
      expect(await raw(toBroken, target)).toBe(404);
      expect(broken.seen.length).toBe(before);
    },
  );
});
