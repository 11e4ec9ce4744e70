// Security headers on every surface the server answers (review item 14): the dashboard (/app), the reference and
// guides (/docs) and the API, its problems included. No page may be framed by another site (clickjacking), no
// answer sniffed into another type, no address leaked in Referer. Each surface has its policy: the dashboard's
// connect-src is its own origin and JES_DASHBOARD_ORIGINS (review item 1); the reference's page keeps its own meta
// policy, the header adding only what a meta tag cannot (frame-ancestors); the API's answers may load nothing.
// A real server on a free port, read over HTTP.
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ConfigError, readConfig } from '../src/config/config.ts';
import { docsDir } from '../src/config/paths.ts';
import { Client, startTestServer } from './support/server.ts';
import { sharedServer } from './support/shared-server.ts';

const script = readdirSync(join(docsDir, 'app')).find((f) => f.endsWith('.js'))!;

/** What a header-less answer would let happen, for every surface. */
function expectHardened(headers: Headers, what: string): void {
  expect(headers.get('x-frame-options'), what).toBe('DENY');
  expect(headers.get('x-content-type-options'), what).toBe('nosniff');
  expect(headers.get('referrer-policy'), what).toBe('no-referrer');
  expect(directives(headers).get('frame-ancestors'), what).toBe("'none'");
}

/** The Content-Security-Policy header, directive by directive. */
function directives(headers: Headers): Map<string, string> {
  const policy = headers.get('content-security-policy') ?? '';
  return new Map(
    policy
      .split(';')
      .map((d) => d.trim())
      .filter(Boolean)
      .map((d) => [d.split(/\s+/)[0]!, d.split(/\s+/).slice(1).join(' ')]),
  );
}

describe('security headers', () => {
  const jes = sharedServer({ JES_WORKERS: '0' });

  const surfaces: [
    string,
    (c: { alice: Client; anonymous: Client }) => Promise<{ status: number; headers: Headers }>,
  ][] = [
    ['the dashboard', (c) => c.anonymous.get('/app/')],
    ["the dashboard's script", (c) => c.anonymous.get(`/app/${script}`)],
    ['the reference', (c) => c.anonymous.get('/docs/')],
    ['a guide', (c) => c.anonymous.get('/docs/guides/security.html')],
    ['the contract', (c) => c.anonymous.get('/openapi.yaml')],
    ['the metrics', (c) => c.anonymous.get('/metrics')],
    ['health', (c) => c.anonymous.get('/healthz')],
    ['a login', (c) => c.anonymous.post('/login', { username: 'alice', password: 'wrong' })],
    ['a listing', (c) => c.alice.get('/job')],
    ['a 401 problem', (c) => c.anonymous.get('/job')],
    ['a 404 problem', (c) => c.anonymous.get('/nowhere')],
  ];

  it.each(surfaces)('are on %s', async (what, request) => {
    const { status, headers } = await request(jes);
    expect(status, what).toBeLessThan(500);
    expectHardened(headers, what);
    // Served over plain HTTP, with TLS at the balancer: Strict-Transport-Security is the balancer's to send.
    expect(headers.get('strict-transport-security'), what).toBeNull();
  });

  it('give the dashboard a policy that lets it reach its own origin only, by default', async () => {
    const policy = directives((await jes.anonymous.get('/app/')).headers);
    expect(policy.get('connect-src')).toBe("'self'");
    expect(policy.get('default-src')).toBe("'self'");
    expect(policy.get('form-action')).toBe("'none'");
  });

  it("leave the reference's own policy (its meta tag) in charge of what it loads", async () => {
    const policy = directives((await jes.anonymous.get('/docs/')).headers);
    expect([...policy.keys()]).toEqual(['frame-ancestors']);
  });

  it('let the API load nothing', async () => {
    expect(directives((await jes.alice.get('/job')).headers).get('default-src')).toBe("'none'");
  });
});

describe('JES_DASHBOARD_ORIGINS', () => {
  it("adds the services it lists to the dashboard's connect-src, and to nothing else", async () => {
    const sandbox = 'http://localhost:4010';
    const other = 'https://jes.example:8443';
    const server = await startTestServer({ JES_WORKERS: '0', JES_DASHBOARD_ORIGINS: `${sandbox}, ${other}` });
    try {
      const anonymous = new Client(server.url);
      expect(directives((await anonymous.get('/app/')).headers).get('connect-src')).toBe(`'self' ${sandbox} ${other}`);
      expect((await anonymous.get('/healthz')).headers.get('content-security-policy')).not.toContain(sandbox);
    } finally {
      await server.close();
    }
  });

  it('is a list of origins, and nothing else', () => {
    const read = (value: string) => readConfig({ JES_DATA_DIR: 'memory:', JES_DASHBOARD_ORIGINS: value });
    expect(read('').dashboardOrigins).toEqual([]);
    expect(read('http://127.0.0.1:4010').dashboardOrigins).toEqual(['http://127.0.0.1:4010']);
    for (const value of ['*', 'http://localhost:4010/', 'localhost:4010', 'ftp://x.example', "'self'"]) {
      expect(() => read(value), value).toThrow(ConfigError);
      expect(() => read(value), value).toThrow(/^JES_DASHBOARD_ORIGINS /);
    }
  });
});
