// Settings read once: the new ones of issue 10 (JES_TRUST_PROXY in Express's own terms, the three login
// policies, the HTTP timeouts), each with its default and a one-line error naming the setting.
import { describe, expect, it } from 'vitest';
import { ConfigError, readConfig } from '../src/config/config.ts';

const read = (env: Record<string, string>) => readConfig({ JES_DATA_DIR: 'memory:', ...env });
const refused = (env: Record<string, string>, setting: string) =>
  expect(() => read(env)).toThrow(new RegExp(`^${setting}`));

describe('JES_TRUST_PROXY', () => {
  it('is off by default and takes what Express takes', () => {
    expect(read({}).trustProxy).toBe(false);
    expect(read({ JES_TRUST_PROXY: 'false' }).trustProxy).toBe(false);
    expect(read({ JES_TRUST_PROXY: 'true' }).trustProxy).toBe(true);
    expect(read({ JES_TRUST_PROXY: '2' }).trustProxy).toBe(2);
    expect(read({ JES_TRUST_PROXY: 'loopback, 10.0.0.0/8,fd00::/8, 192.0.2.1' }).trustProxy).toBe(
      'loopback, 10.0.0.0/8,fd00::/8, 192.0.2.1',
    );
  });
  it('refuses what Express would not understand', () => {
    for (const value of ['yes', '10.0.0.0/8/1', 'example.com', '10.0.0.0/abc', '10.0.0.0/33', '::1/129'])
      refused({ JES_TRUST_PROXY: value }, 'JES_TRUST_PROXY');
    expect(() => read({ JES_TRUST_PROXY: 'yes' })).toThrow(ConfigError);
  });
});

describe('JES_RATE_LIMITS', () => {
  it('has five policies by default, and a setting replaces only the policies it names', () => {
    expect(read({}).rateLimits).toEqual({
      login: { limit: 10, windowSeconds: 60 },
      login_account: { limit: 20, windowSeconds: 600 },
      login_address: { limit: 30, windowSeconds: 60 },
      submit: { limit: 60, windowSeconds: 60 },
      default: { limit: 1200, windowSeconds: 60 },
    });
    expect(read({ JES_RATE_LIMITS: 'login_account=5/300' }).rateLimits?.login_account).toEqual({
      limit: 5,
      windowSeconds: 300,
    });
    expect(read({ JES_RATE_LIMITS: 'off' }).rateLimits).toBeUndefined();
    refused({ JES_RATE_LIMITS: 'logins=1/60' }, 'JES_RATE_LIMITS');
  });
});

describe('HTTP limits', () => {
  it('have their defaults, and refuse a headers timeout longer than the request timeout', () => {
    expect(read({}).http).toEqual({
      headersTimeoutMs: 20_000,
      requestTimeoutMs: 600_000,
      keepAliveTimeoutMs: 65_000,
      maxConnections: 1000,
      maxConnectionsPerAddress: 100,
      maxWaitsPerUser: 20,
      maxStreamsPerUser: 50,
    });
    refused({ JES_HEADERS_TIMEOUT_SECONDS: '30', JES_REQUEST_TIMEOUT_SECONDS: '10' }, 'JES_HEADERS_TIMEOUT_SECONDS');
    refused({ JES_MAX_CONNECTIONS: '0' }, 'JES_MAX_CONNECTIONS');
    refused({ JES_MAX_CONNECTIONS_PER_ADDRESS: '0' }, 'JES_MAX_CONNECTIONS_PER_ADDRESS');
    refused({ JES_MAX_LONG_POLLS_PER_USER: '-1' }, 'JES_MAX_LONG_POLLS_PER_USER');
    refused({ JES_MAX_STREAMS_PER_USER: '0' }, 'JES_MAX_STREAMS_PER_USER');
  });
});

describe('JES_CORS_ORIGINS', () => {
  it('is unset by default (no cross-origin page is answered), * for any origin, or a list of origins', () => {
    expect(read({}).corsOrigins).toBeUndefined();
    expect(read({ JES_CORS_ORIGINS: ' ' }).corsOrigins).toBeUndefined();
    expect(read({ JES_CORS_ORIGINS: '*' }).corsOrigins).toBe('*');
    const list = read({ JES_CORS_ORIGINS: 'https://app.example.com, http://localhost:5173' }).corsOrigins;
    expect(list).toEqual(['https://app.example.com', 'http://localhost:5173']);
    expect(read({ JES_CORS_ORIGINS: 'http://[::1]:8080' }).corsOrigins).toEqual(['http://[::1]:8080']);
  });
  it('refuses what a browser never sends as Origin, since origins are matched by their exact text', () => {
    const values = [
      'https://app.example.com/',
      'https://app.example.com/app',
      'app.example.com',
      'https://APP.example.com',
      'https://app.example.com:443',
      'ftp://example.com',
      'null',
      '*,https://a.example',
      'https://a.example,',
      'https://a.example?x=1',
      'https://user@a.example',
    ];
    for (const value of values) refused({ JES_CORS_ORIGINS: value }, 'JES_CORS_ORIGINS');
    expect(() => read({ JES_CORS_ORIGINS: 'https://app.example.com/' })).toThrow(
      '(did you mean https://app.example.com?)',
    );
  });
});

describe('HOST', () => {
  it('is 127.0.0.1 by default (this machine only), and takes any address or a host name', () => {
    expect(read({}).host).toBe('127.0.0.1');
    for (const host of ['0.0.0.0', '::', '::1', '10.1.2.3', 'localhost', 'api.internal'])
      expect(read({ HOST: host }).host).toBe(host);
    for (const host of ['http://localhost', 'localhost:3000', '-x', '10.0.0.0/8']) refused({ HOST: host }, 'HOST');
  });
});

describe('JES_LOG_FORMAT', () => {
  it('is auto by default (human lines on a terminal, JSON otherwise), or json, or pretty', () => {
    expect(read({}).logFormat).toBe('auto');
    expect(read({ JES_LOG_FORMAT: 'json' }).logFormat).toBe('json');
    expect(read({ JES_LOG_FORMAT: 'pretty' }).logFormat).toBe('pretty');
    refused({ JES_LOG_FORMAT: 'text' }, 'JES_LOG_FORMAT');
  });
});

describe('webhooks', () => {
  it("allow no private host by default, hold the contract's schedule, and take a list of hosts", () => {
    const { webhooks } = read({});
    expect([...webhooks.allowHosts]).toEqual([]);
    expect(webhooks).toMatchObject({ concurrency: 16, attemptTimeoutMs: 10_000 });
    expect(webhooks.retryDelaysMs).toHaveLength(7);
    const listed = read({ JES_WEBHOOK_ALLOW_HOSTS: ' 127.0.0.1, Hooks.Internal ,[::1]' }).webhooks.allowHosts;
    expect([...listed]).toEqual(['127.0.0.1', 'hooks.internal', '::1']);
    for (const value of ['http://hooks.internal', 'hooks.internal:8080', 'hooks.internal/x', 'a b'])
      refused({ JES_WEBHOOK_ALLOW_HOSTS: value }, 'JES_WEBHOOK_ALLOW_HOSTS');
    refused({ JES_WEBHOOK_CONCURRENCY: '0' }, 'JES_WEBHOOK_CONCURRENCY');
  });
});

describe('JES_USERS', () => {
  const hash = 'scrypt$16$1$1$c2FsdHNhbHRzYWx0$' + Buffer.alloc(32, 7).toString('base64url');
  it('takes passwords, and stored hashes of the form jes-server hash-password prints', () => {
    expect(read({ JES_USERS: `alice:a:b$c,bob:${hash}` }).users).toEqual([
      { name: 'alice', password: 'a:b$c' },
      { name: 'bob', hash },
    ]);
  });
  it('refuses a stored hash it could not check, or one costing more memory than the default, naming the user', () => {
    const [, , , , salt, key] = hash.split('$');
    for (const bad of [
      'scrypt$',
      `scrypt$15$1$1$${salt}$${key}`, // N not a power of two
      `scrypt$1$1$1$${salt}$${key}`,
      `scrypt$65536$8$1$${salt}$${key}`, // 64 MiB
      `scrypt$16$0$1$${salt}$${key}`,
      `scrypt$16$1$17$${salt}$${key}`,
      `scrypt$16$1$1$c2FsdA$${key}`, // a 4-byte salt
      `scrypt$16$1$1$${salt}$c2FsdA`,
      `scrypt$16$1$1$${salt}$${key}=`,
    ]) {
      expect(() => read({ JES_USERS: `bob:${bad}` }), bad).toThrow(/^JES_USERS: bob's stored hash is invalid: /);
    }
  });
});
