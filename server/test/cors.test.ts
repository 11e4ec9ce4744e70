// CORS (JES_CORS_ORIGINS), so that a page on another origin can use @jes/client against the server: preflights
// answered before authentication and rate limits, every answer (problems included) readable by the page with the
// contract's headers exposed, nothing at all when the setting is unset. Real servers over HTTP; responses are
// validated against the contract by the server itself, so an extra header that broke validation would be a 500.
import { describe, expect, it } from 'vitest';
import { expectProblem } from './support/problems.ts';
import { Client, type Reply, sixNodes, users } from './support/server.ts';
import { sharedServer } from './support/shared-server.ts';

const page = 'https://app.example';
const otherPage = 'http://localhost:5173';
const stranger = 'https://evil.example';

/** The contract's response headers a page must be able to read (exact names, as the server sends them). */
const contractHeaders = [
  'X-Request-Id',
  'RateLimit',
  'RateLimit-Policy',
  'Retry-After',
  'Location',
  'Preference-Applied',
  'Idempotent-Replayed',
  'Deprecation',
  'Sunset',
];

const list = (value: string | null) =>
  (value ?? '')
    .split(',')
    .map((name) => name.trim().toLowerCase())
    .filter(Boolean);

/** A browser's preflight for `method` with `headers` on `path`, from `origin`. */
function preflight(
  client: Client,
  path: string,
  origin: string,
  method: string,
  headers = 'authorization,prefer',
): Promise<Reply> {
  return client.request('OPTIONS', path, {
    headers: { origin, 'access-control-request-method': method, 'access-control-request-headers': headers },
  });
}

/** Asserts that `reply` lets the page at `origin` read it, and read every contract header it carries. */
function readableBy(reply: Reply, origin: string): void {
  expect(reply.headers.get('access-control-allow-origin')).toBe(origin);
  expect(reply.headers.get('access-control-allow-credentials')).toBeNull();
  const exposed = list(reply.headers.get('access-control-expose-headers'));
  for (const name of contractHeaders) if (reply.headers.has(name)) expect(exposed, name).toContain(name.toLowerCase());
}

describe('JES_CORS_ORIGINS with a list of origins', () => {
  // Rate limits on (two logins per address and username), to see preflights not counted and 429 readable.
  const jes = sharedServer({
    JES_CORS_ORIGINS: `${page}, ${otherPage}`,
    JES_RATE_LIMITS: 'login=2/600',
    JES_WORKERS: '0',
  });
  const from = (origin: string) => ({ origin });

  it('answers a preflight from a listed origin with 204, before authentication, and lets browsers keep it', async () => {
    for (const origin of [page, otherPage]) {
      const reply = await preflight(jes.anonymous, '/job/0190c7d8-3c5e-7b4a-9f1e-6d2a8b4c0e11', origin, 'DELETE');
      expect(reply.status).toBe(204);
      expect(reply.body).toBeUndefined();
      expect(reply.headers.get('access-control-allow-origin')).toBe(origin);
      expect(list(reply.headers.get('vary'))).toContain('origin');
      expect(reply.headers.get('access-control-allow-credentials')).toBeNull();
      expect(list(reply.headers.get('access-control-allow-methods'))).toEqual(
        expect.arrayContaining(['get', 'post', 'delete']),
      );
      const allowed = list(reply.headers.get('access-control-allow-headers'));
      for (const name of ['authorization', 'content-type', 'prefer', 'idempotency-key', 'x-request-id']) {
        expect(allowed).toContain(name);
      }
      expect(reply.headers.get('access-control-max-age')).toBe('600');
      expect(reply.headers.get('x-request-id')).toBeTruthy();
    }
  });

  it('gives a preflight from an origin not listed no Access-Control-Allow-Origin (the browser refuses), and no error', async () => {
    const reply = await preflight(jes.anonymous, '/job', stranger, 'GET');
    expect(reply.status).toBe(204);
    expect(reply.headers.get('access-control-allow-origin')).toBeNull();
    const real = await jes.alice.get('/job', from(stranger));
    expect(real.status).toBe(200);
    expect(real.headers.get('access-control-allow-origin')).toBeNull();
    // The answer depends on the origin: a shared cache must not hand this one to a listed page, or the reverse.
    expect(list(real.headers.get('vary'))).toContain('origin');
  });

  it('routes an OPTIONS that is not a preflight as before: 405 with Allow', async () => {
    const reply = await jes.anonymous.request('OPTIONS', '/job', { headers: from(page) });
    expectProblem(reply, 405, 'method_not_allowed');
    expect(reply.headers.get('allow')).toBe('GET');
  });

  it('lets a page read real answers and the contract headers they carry', async () => {
    const jobs = await jes.alice.get('/job', from(page));
    expect(jobs.status).toBe(200);
    readableBy(jobs, page);
    expect(jobs.headers.has('RateLimit')).toBe(true);
    expect(jobs.headers.has('RateLimit-Policy')).toBe(true);
    expect(jobs.headers.get('x-request-id')).toBeTruthy();

    const headers = { ...from(page), 'content-type': 'application/json', 'idempotency-key': 'cors-test-1' };
    const started = await jes.alice.request('POST', '/problem/maxcut', { headers, body: JSON.stringify(sixNodes) });
    expect(started.status).toBe(200);
    readableBy(started, page);
    expect(started.headers.get('location')).toBe(`/job/${started.body.job}`);
    const again = await jes.alice.request('POST', '/problem/maxcut', { headers, body: JSON.stringify(sixNodes) });
    readableBy(again, page);
    expect(again.headers.get('idempotent-replayed')).toBe('true');

    const polled = await jes.alice.get(`/job/${started.body.job}`, { ...from(page), prefer: 'wait=1' });
    expect(polled.status).toBe(200);
    readableBy(polled, page);
    expect(polled.headers.get('preference-applied')).toBe('wait=1');

    // Every header the contract defines for a page to read is listed, whatever the answer.
    expect(list(jobs.headers.get('access-control-expose-headers')).sort()).toEqual(
      contractHeaders.map((h) => h.toLowerCase()).sort(),
    );
  });

  it('lets a page read problems: 401 without a token, 404, 400 from the validator, 405', async () => {
    const missingToken = await jes.anonymous.get('/job', from(page));
    expectProblem(missingToken, 401, 'missing_token');
    readableBy(missingToken, page);
    const refusedToken = await jes.anonymous.get('/job', { ...from(page), authorization: 'Bearer not-a-token' });
    expectProblem(refusedToken, 401, 'invalid_token');
    readableBy(refusedToken, page);
    const noPath = await jes.anonymous.get('/nowhere', from(page));
    expectProblem(noPath, 404, 'not_found');
    readableBy(noPath, page);
    const invalid = await jes.alice.get('/job?limit=0', from(page));
    expectProblem(invalid, 400, 'invalid_request');
    readableBy(invalid, page);
    const method = await jes.anonymous.request('PUT', '/job', { headers: from(page) });
    expectProblem(method, 405, 'method_not_allowed');
    readableBy(method, page);
  });

  it('counts no preflight against the rate limits, and lets a page read the 429 and its Retry-After', async () => {
    const bob = new Client(jes.url);
    for (let i = 0; i < 5; i++) expect((await preflight(bob, '/login', page, 'POST', 'content-type')).status).toBe(204);
    const body = JSON.stringify({ username: 'bob', password: users.bob });
    const login = () =>
      bob.request('POST', '/login', { headers: { ...from(page), 'content-type': 'application/json' }, body });
    expect((await login()).status).toBe(200);
    expect((await login()).status).toBe(200);
    const limited = await login();
    expectProblem(limited, 429, 'rate_limited');
    readableBy(limited, page);
    expect(limited.headers.get('retry-after')).toMatch(/^\d+$/);
  });
});

describe('JES_CORS_ORIGINS=*', () => {
  const jes = sharedServer({ JES_CORS_ORIGINS: '*', JES_WORKERS: '0' });

  it('answers any origin with *, without credentials, on preflights and on answers', async () => {
    const reply = await preflight(
      jes.anonymous,
      '/problem/maxcut',
      stranger,
      'POST',
      'authorization,content-type,idempotency-key',
    );
    expect(reply.status).toBe(204);
    expect(reply.headers.get('access-control-allow-origin')).toBe('*');
    expect(reply.headers.get('access-control-allow-credentials')).toBeNull();
    expect(list(reply.headers.get('access-control-allow-headers'))).toContain('idempotency-key');
    readableBy(await jes.alice.get('/job', { origin: stranger }), '*');
    readableBy(await jes.anonymous.get('/job', { origin: page }), '*');
  });
});

describe('JES_CORS_ORIGINS unset', () => {
  const jes = sharedServer({ JES_WORKERS: '0' });

  it('sends no CORS header at all, and a preflight is routed like any OPTIONS (405)', async () => {
    const reply = await preflight(jes.anonymous, '/job', page, 'GET');
    expectProblem(reply, 405, 'method_not_allowed');
    const answers = [
      reply,
      await jes.alice.get('/job', { origin: page }),
      await jes.anonymous.get('/job', { origin: page }),
    ];
    for (const answer of answers) {
      expect([...answer.headers.keys()].filter((name) => name.startsWith('access-control-'))).toEqual([]);
      expect(list(answer.headers.get('vary'))).not.toContain('origin');
    }
  });
});
