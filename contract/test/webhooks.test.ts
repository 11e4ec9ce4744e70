// The shared webhook parts against the real thing: signatures the official `standardwebhooks` package accepts,
// the address guard's table of addresses, and attempts against a real HTTP receiver on 127.0.0.1 (allowed by
// name, as JES_WEBHOOK_ALLOW_HOSTS would), one per way an attempt can end.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Webhook } from 'standardwebhooks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  attemptDelivery,
  hostRefusal,
  newWebhookSecret,
  nextRetryDelayMs,
  parseAllowHosts,
  refusedAddressKind,
  signatureHeader,
  webhookHeaders,
  webhookMaxAttempts,
  webhookUrlRefusal,
} from '../src/node.ts';

describe('signature', () => {
  it('makes secrets of 24 random bytes in the contract pattern', () => {
    const secret = newWebhookSecret();
    expect(secret).toMatch(/^whsec_[A-Za-z0-9+/]+={0,2}$/);
    expect(Buffer.from(secret.slice(6), 'base64')).toHaveLength(24);
    expect(newWebhookSecret()).not.toBe(secret);
  });

  it('signs as standardwebhooks verifies, with one secret or two', () => {
    const current = newWebhookSecret();
    const previous = newWebhookSecret();
    const body = JSON.stringify({ type: 'job.ended', data: { job_id: 'K7Q2M9X4TB1R' } });
    const timestamp = Math.floor(Date.now() / 1000);
    const one = webhookHeaders([current], 'msg_1', timestamp, body);
    expect(new Webhook(current).verify(body, one)).toEqual(JSON.parse(body));
    expect(() => new Webhook(previous).verify(body, one)).toThrow();
    const two = webhookHeaders([current, previous], 'msg_1', timestamp, body);
    expect(two['webhook-signature']?.split(' ')).toHaveLength(2);
    expect(new Webhook(current).verify(body, two)).toEqual(JSON.parse(body));
    expect(new Webhook(previous).verify(body, two)).toEqual(JSON.parse(body));
    // Any change to the id, the second or the body breaks it.
    expect(() => new Webhook(current).verify(`${body} `, two)).toThrow();
    expect(() => new Webhook(current).verify(body, { ...two, 'webhook-id': 'msg_2' })).toThrow();
  });

  it('matches the signature standardwebhooks makes', () => {
    const secret = newWebhookSecret();
    const at = new Date(1_795_701_792_000);
    expect(signatureHeader([secret], 'msg_x', 1_795_701_792, '{}')).toBe(new Webhook(secret).sign('msg_x', at, '{}'));
  });
});

describe('address guard', () => {
  const none = parseAllowHosts(undefined);
  it.each([
    ['127.0.0.1', 'a loopback address'],
    ['127.9.9.9', 'a loopback address'],
    ['10.1.2.3', 'a private address'],
    ['172.20.0.1', 'a private address'],
    ['192.168.1.1', 'a private address'],
    ['169.254.169.254', 'a link-local address'],
    ['100.64.0.1', 'a shared (CGNAT) address'],
    ['0.0.0.0', 'an unspecified address'],
    ['224.0.0.1', 'a multicast address'],
    ['255.255.255.255', 'a reserved address'],
    ['::1', 'a loopback address'],
    ['::', 'an unspecified address'],
    ['fe80::1', 'a link-local address'],
    ['fd00::1', 'a unique-local address'],
    ['ff02::1', 'a multicast address'],
    ['::ffff:127.0.0.1', 'a loopback address'],
    ['::ffff:7f00:1', 'a loopback address'],
    ['::ffff:169.254.169.254', 'a link-local address'],
    ['64:ff9b::a9fe:a9fe', 'a link-local address'],
    ['8.8.8.8', null],
    ['93.184.216.34', null],
    ['2606:4700::1111', null],
    ['::ffff:8.8.8.8', null],
  ])('%s is %s', (address, kind) => {
    expect(refusedAddressKind(address)).toBe(kind);
  });

  it.each([
    ['http://127.0.0.1/hook', '127.0.0.1 is a loopback address'],
    ['http://localhost:8080/', 'localhost is a loopback host name'],
    ['http://LOCALHOST./', 'localhost is a loopback host name'],
    ['http://app.localhost/', 'app.localhost is a loopback host name'],
    ['http://169.254.169.254/latest', '169.254.169.254 is a link-local address'],
    ['http://[::1]/', '::1 is a loopback address'],
    ['http://[::ffff:127.0.0.1]/', '::ffff:7f00:1 is a loopback address'],
    ['http://2130706433/', '127.0.0.1 is a loopback address'],
    ['http://0x7f.1/', '127.0.0.1 is a loopback address'],
    ['http://hooks.example.com/', null],
    ['https://8.8.8.8/', null],
  ])('PUT %s: %s', (url, reason) => {
    expect(hostRefusal(new URL(url).hostname, none)).toBe(reason);
  });

  it('lets the allow list name a host or an address', () => {
    const allow = parseAllowHosts(' 127.0.0.1, LocalHost ,[::1]');
    expect(webhookUrlRefusal('http://127.0.0.1:9/', allow)).toBeNull();
    expect(webhookUrlRefusal('http://localhost/', allow)).toBeNull();
    expect(webhookUrlRefusal('http://[0:0::1]/', allow)).toBeNull();
    expect(webhookUrlRefusal('http://10.0.0.1/', allow)?.reason).toBe('10.0.0.1 is a private address.');
  });

  it('refuses other schemes and credentials', () => {
    expect(webhookUrlRefusal('ftp://hooks.example.com/', none)?.reason).toMatch(/scheme ftp/);
    expect(webhookUrlRefusal('https://u:p@hooks.example.com/', none)?.reason).toMatch(/user or password/);
    expect(webhookUrlRefusal('http://169.254.169.254/', none)?.detail).toBe(
      "The webhook's host 169.254.169.254 is a link-local address; the service calls only public addresses.",
    );
  });
});

describe('schedule', () => {
  it('is the contract schedule: 7 retries over more than 24 h', () => {
    const delays = Array.from({ length: 8 }, (_, i) => nextRetryDelayMs(i + 1));
    expect(delays).toEqual([5_000, 300_000, 1_800_000, 7_200_000, 18_000_000, 36_000_000, 36_000_000, null]);
    expect(webhookMaxAttempts).toBe(8);
    const total = delays.reduce<number>((sum, d) => sum + (d ?? 0), 0);
    expect(total).toBeGreaterThan(24 * 3_600_000);
  });
});

describe('attempt', () => {
  let server: Server;
  let base = '';
  const received: { headers: IncomingMessage['headers']; body: string }[] = [];
  const allow = parseAllowHosts('127.0.0.1,localhost');
  const routes: Record<string, (req: IncomingMessage, res: ServerResponse) => void> = {
    '/ok': (_req, res) => res.writeHead(204).end(),
    '/fail': (_req, res) => res.writeHead(500).end('no'),
    '/redirect': (_req, res) => res.writeHead(302, { location: '/ok' }).end(),
    '/silent': () => {},
    '/big': (_req, res) => {
      res.writeHead(200);
      const chunk = Buffer.alloc(16 * 1024, 97);
      // Never ends: the attempt must stop reading at 64 KiB and still count the 200.
      const timer = setInterval(() => res.write(chunk), 1);
      res.on('close', () => clearInterval(timer));
    },
  };

  beforeAll(async () => {
    server = createServer((req, res) => {
      let body = '';
      req.on('data', (chunk: Buffer) => (body += chunk.toString()));
      req.on('end', () => {
        received.push({ headers: req.headers, body });
        (routes[req.url ?? ''] ?? routes['/fail'])?.(req, res);
      });
    });
    await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    server.closeAllConnections();
    await new Promise((done) => server.close(done));
  });

  const attempt = (
    path: string,
    extra: { timeoutMs?: number; url?: string; allowHosts?: ReadonlySet<string> } = {},
  ) => {
    const secret = newWebhookSecret();
    const body = '{"type":"job.ended"}';
    return attemptDelivery({
      url: extra.url ?? base + path,
      headers: webhookHeaders([secret], 'msg_t', Math.floor(Date.now() / 1000), body),
      body,
      allowHosts: extra.allowHosts ?? allow,
      ...(extra.timeoutMs === undefined ? {} : { timeoutMs: extra.timeoutMs }),
    });
  };

  it('delivers on a 2xx, with the body and the headers', async () => {
    expect(await attempt('/ok')).toEqual({ delivered: true, status: 204 });
    const last = received.at(-1);
    expect(last?.body).toBe('{"type":"job.ended"}');
    expect(last?.headers['webhook-id']).toBe('msg_t');
    expect(last?.headers['content-type']).toBe('application/json');
  });

  it('fails on a 500', async () => {
    expect(await attempt('/fail')).toEqual({ delivered: false, reason: 'HTTP 500' });
  });

  it('does not follow a redirect', async () => {
    const before = received.length;
    expect(await attempt('/redirect')).toEqual({ delivered: false, reason: 'HTTP 302 (redirect not followed)' });
    expect(received.length).toBe(before + 1);
  });

  it('gives up on a receiver that never answers', async () => {
    expect(await attempt('/silent', { timeoutMs: 300 })).toEqual({ delivered: false, reason: 'timed out after 0.3 s' });
  });

  it('reads at most 64 KiB of an answer', async () => {
    expect(await attempt('/big')).toEqual({ delivered: true, status: 200 });
  });

  it('refuses a loopback address, literal or resolved, without the allow list', async () => {
    const none = parseAllowHosts('');
    expect(await attempt('/ok', { allowHosts: none })).toEqual({
      delivered: false,
      reason: 'address refused: 127.0.0.1',
    });
    const port = new URL(base).port;
    const byName = await attempt('', { url: `http://localhost:${port}/ok`, allowHosts: none });
    expect(byName).toEqual({ delivered: false, reason: 'address refused: localhost' });
  });

  it('checks a resolved name at the attempt and dials the checked address', async () => {
    const port = new URL(base).port;
    const url = `http://hooks.example.test:${port}/ok`;
    const toLoopback = async () => [{ address: '127.0.0.1', family: 4 }];
    const none = parseAllowHosts('');
    expect(await attemptDelivery({ url, headers: {}, body: '{}', allowHosts: none, resolve: toLoopback })).toEqual({
      delivered: false,
      reason: 'address refused: 127.0.0.1',
    });
    // Allowed by its address, the name reaches the receiver at the address the lookup checked.
    const byAddress = parseAllowHosts('127.0.0.1');
    expect(await attemptDelivery({ url, headers: {}, body: '{}', allowHosts: byAddress, resolve: toLoopback })).toEqual(
      {
        delivered: true,
        status: 204,
      },
    );
    // Of a public and a loopback answer, only the public one would be dialled: here none is left to reach.
    const mixed = async () => [
      { address: '127.0.0.1', family: 4 },
      { address: '192.0.2.1', family: 4 },
    ];
    const result = await attemptDelivery({
      url,
      headers: {},
      body: '{}',
      allowHosts: none,
      resolve: mixed,
      timeoutMs: 500,
    });
    expect(result.delivered).toBe(false);
  });

  it('names a refused connection', async () => {
    const closed = createServer();
    await new Promise<void>((done) => closed.listen(0, '127.0.0.1', done));
    const port = (closed.address() as AddressInfo).port;
    await new Promise((done) => closed.close(done));
    expect(await attempt('', { url: `http://127.0.0.1:${port}/` })).toEqual({
      delivered: false,
      reason: 'connection refused',
    });
  });
});
