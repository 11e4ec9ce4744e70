// The stateful sandbox's webhooks over HTTP (issue 31 §5), with a real receiver and the reference verifier
// (standardwebhooks): the webhook and its secret, the address guard (loopback allowed by default, link-local and
// private refused, loopback refused too with an empty allow list), deliveries of each status change and of the end,
// signed as a deployment signs them and holding the job as listings show it, retried with the same id until a 2xx,
// `failed` once the contract's attempts run out, two signatures after a rotation, and nothing more after DELETE.
import { Webhook } from 'standardwebhooks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Received, type Receiver, startReceiver } from '../../server/test/support/webhook-receiver.ts';
import { type Sandbox, startSandbox } from '../src/server.ts';

type Auth = { authorization: string; 'content-type': string };

async function login(base: string, username: string): Promise<Auth> {
  const res = await fetch(`${base}/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ username, password: 'any' }),
  });
  return { authorization: `Bearer ${(await res.json()).access_token}`, 'content-type': 'application/json' };
}

const call = async (base: string, auth: Auth, method: string, path: string, body?: unknown) => {
  const res = await fetch(base + path, { method, headers: auth, ...(body ? { body: JSON.stringify(body) } : {}) });
  const text = await res.text();
  return { status: res.status, body: text ? JSON.parse(text) : undefined };
};

const start = async (base: string, auth: Auth) =>
  (
    await call(base, auth, 'POST', '/problem/maxcut?solver=exact', {
      num_nodes: 3,
      adj_matrix: [
        [0, 1, 2],
        [1, 0, 3],
        [2, 3, 0],
      ],
    })
  ).body.job as string;

/** The headers standardwebhooks reads, from a request as the receiver recorded it. */
const signed = (request: Received) => ({
  'webhook-id': String(request.headers['webhook-id']),
  'webhook-timestamp': String(request.headers['webhook-timestamp']),
  'webhook-signature': String(request.headers['webhook-signature']),
});

/** The deliveries, asked again until `done` holds of them (the sandbox records an attempt once its answer is in). */
async function deliveriesWhen(base: string, auth: Auth, done: (list: any[]) => boolean): Promise<any[]> {
  for (;;) {
    const { body } = await call(base, auth, 'GET', '/webhook/deliveries');
    if (done(body.deliveries)) return body.deliveries;
  }
}

let sandbox: Sandbox;
let hurried: Sandbox;
let strict: Sandbox;
let receiver: Receiver;
beforeAll(async () => {
  [sandbox, hurried, strict, receiver] = await Promise.all([
    startSandbox({ seed: 8, speed: 1000 }),
    // The contract's 36 hours of retries in about 0.13 s.
    startSandbox({ seed: 9, speed: 1_000_000 }),
    startSandbox({ seed: 10, speed: 1000, webhookAllowHosts: [] }),
    startReceiver(),
  ]);
});
afterAll(() => Promise.all([sandbox?.close(), hurried?.close(), strict?.close(), receiver?.close()]));

describe('the webhook', () => {
  it('has no URL and a whsec_ secret at first, the same on each read; DELETE keeps the secret', async () => {
    const auth = await login(sandbox.url, 'reader');
    const first = await call(sandbox.url, auth, 'GET', '/webhook');
    expect(first).toEqual({
      status: 200,
      body: {
        url: null,
        events: ['job.ended'],
        secret: expect.stringMatching(/^whsec_/),
        previous_secret_expires_at: null,
      },
    });
    expect((await call(sandbox.url, auth, 'GET', '/webhook')).body).toEqual(first.body);
    await call(sandbox.url, auth, 'PUT', '/webhook', { url: `${receiver.url}/reader` });
    expect((await call(sandbox.url, auth, 'DELETE', '/webhook')).status).toBe(204);
    expect((await call(sandbox.url, auth, 'GET', '/webhook')).body).toEqual(first.body);
  });

  it.each([
    ['http://169.254.169.254/latest', '169.254.169.254 is a link-local address'],
    ['http://10.1.2.3/hook', '10.1.2.3 is a private address'],
    ['http://[::ffff:169.254.169.254]/hook', 'is a link-local address'],
    ['ftp://example.com/hook', 'not http or https'],
  ])('refuses %s (422 webhook_url_refused at /url)', async (url, why) => {
    const auth = await login(sandbox.url, 'guarded');
    const { status, body } = await call(sandbox.url, auth, 'PUT', '/webhook', { url });
    expect([status, body.code, body.errors[0].pointer]).toEqual([422, 'webhook_url_refused', '/url']);
    expect(body.errors[0].detail).toContain(why);
  });

  it('takes this machine by default, and refuses it too with an empty allow list, as a deployment does', async () => {
    const url = `${receiver.url}/local`;
    expect((await call(sandbox.url, await login(sandbox.url, 'local'), 'PUT', '/webhook', { url })).status).toBe(200);
    const refused = await call(strict.url, await login(strict.url, 'local'), 'PUT', '/webhook', { url });
    expect([refused.status, refused.body.code]).toEqual([422, 'webhook_url_refused']);
    expect(refused.body.detail).toContain('localhost is a loopback host name');
  });
});

describe('deliveries', () => {
  it('tells each status change and the end, signed as the contract says, with the job as listings show it', async () => {
    const auth = await login(sandbox.url, 'told');
    const { body: hook } = await call(sandbox.url, auth, 'PUT', '/webhook', {
      url: `${receiver.url}/told`,
      events: ['job.status_changed', 'job.ended'],
    });
    expect(hook).toMatchObject({ url: `${receiver.url}/told`, events: ['job.status_changed', 'job.ended'] });
    const id = await start(sandbox.url, auth);
    const came = await receiver.received((r) => r.path === '/told', 3);
    const verifier = new Webhook(hook.secret);
    const payloads = came.map((request) => verifier.verify(request.body, signed(request)) as any);
    expect(payloads.map((p) => [p.type, p.data.job_id, p.data.status, p.data.job.status])).toEqual([
      ['job.status_changed', id, 'RUNNING', 'RUNNING'],
      ['job.status_changed', id, 'FINISHED', 'FINISHED'],
      ['job.ended', id, 'FINISHED', 'FINISHED'],
    ]);
    const listed = (await call(sandbox.url, auth, 'GET', '/job')).body.job[id];
    expect(payloads[2].data.job).toEqual(listed);
    expect(payloads[2].timestamp).toBe(listed.timestamps.ended);
    const deliveries = await deliveriesWhen(sandbox.url, auth, (list) => list.every((d) => d.status === 'delivered'));
    // Newest first, each the webhook-id it was sent with.
    expect(deliveries.map((d) => [d.id, d.type, d.attempts, d.job_id, d.last_error, d.next_attempt_at])).toEqual(
      [...came]
        .reverse()
        .map((r, i) => [r.headers['webhook-id'], i === 0 ? 'job.ended' : 'job.status_changed', 1, id, null, null]),
    );
  });

  it('retries an answer other than 2xx with the same id and body until one is 2xx', async () => {
    const auth = await login(sandbox.url, 'flaky');
    let answered = 0;
    receiver.answer('/flaky', (_request, res) => void res.writeHead(++answered <= 2 ? 500 : 200).end());
    const { body: hook } = await call(sandbox.url, auth, 'PUT', '/webhook', { url: `${receiver.url}/flaky` });
    await start(sandbox.url, auth);
    const came = await receiver.received((r) => r.path === '/flaky', 3);
    expect(new Set(came.map((r) => r.headers['webhook-id'])).size).toBe(1);
    expect(new Set(came.map((r) => r.body)).size).toBe(1);
    for (const request of came)
      expect(() => new Webhook(hook.secret).verify(request.body, signed(request))).not.toThrow();
    const [delivery] = await deliveriesWhen(sandbox.url, auth, (list) => list[0]?.status === 'delivered');
    expect(delivery).toMatchObject({ type: 'job.ended', attempts: 3, status: 'delivered', next_attempt_at: null });
  });

  it("is failed once the contract's eight attempts have all failed", async () => {
    const auth = await login(hurried.url, 'broken');
    receiver.answer('/broken', (_request, res) => void res.writeHead(500).end());
    await call(hurried.url, auth, 'PUT', '/webhook', { url: `${receiver.url}/broken` });
    await start(hurried.url, auth);
    await receiver.received((r) => r.path === '/broken', 8);
    const [delivery] = await deliveriesWhen(hurried.url, auth, (list) => list[0]?.status === 'failed');
    expect(delivery).toMatchObject({ attempts: 8, status: 'failed', next_attempt_at: null, last_error: 'HTTP 500' });
  });

  it('carries two signatures after a rotation, by the new secret and the one before', async () => {
    const auth = await login(sandbox.url, 'rotated');
    const { body: before } = await call(sandbox.url, auth, 'PUT', '/webhook', { url: `${receiver.url}/rotated` });
    const { body: after } = await call(sandbox.url, auth, 'POST', '/webhook/secret');
    expect(after.secret).not.toBe(before.secret);
    expect(after.previous_secret_expires_at).toEqual(expect.any(String));
    await start(sandbox.url, auth);
    const [request] = await receiver.received((r) => r.path === '/rotated');
    expect(String(request!.headers['webhook-signature']).split(' ')).toHaveLength(2);
    for (const secret of [after.secret, before.secret])
      expect(() => new Webhook(secret).verify(request!.body, signed(request!))).not.toThrow();
  });

  it('stop after DELETE /webhook', async () => {
    const auth = await login(sandbox.url, 'removed');
    await call(sandbox.url, auth, 'PUT', '/webhook', { url: `${receiver.url}/removed` });
    await start(sandbox.url, auth);
    await deliveriesWhen(sandbox.url, auth, (list) => list[0]?.status === 'delivered');
    await call(sandbox.url, auth, 'DELETE', '/webhook');
    // A job that ends after the removal is told to nobody: its stream's end comes, and no delivery is added.
    const id = await start(sandbox.url, auth);
    await fetch(`${sandbox.url}/job/${id}/events`, { headers: auth }).then((res) => res.text());
    expect((await call(sandbox.url, auth, 'GET', '/webhook/deliveries')).body.deliveries).toHaveLength(1);
  });
});
