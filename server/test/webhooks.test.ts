// Webhooks end to end, over HTTP against the real server and a real receiver on 127.0.0.1 (allowed by name:
// JES_WEBHOOK_ALLOW_HOSTS=localhost). A job's end is delivered, signed so that the official `standardwebhooks`
// package verifies it, its body the contract's WebhookPayload; every status change when asked; retried with the
// same webhook-id after 500s; an attempt that gets no answer times out and the server serves meanwhile; a redirect
// is not followed; refused URLs are 422 webhook_url_refused at /url; a rotation signs with both secrets. The retry
// schedule and the attempt's time limit are shortened through the Config (not the environment) to keep it short.
import { lookup } from 'node:dns/promises';
import { hostname } from 'node:os';
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import { Webhook } from 'standardwebhooks';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { carriedContract } from '@jes/contract/node';
import { readConfig } from '../src/config/config.ts';
import { type Running, startServer } from '../src/start/main.ts';
import { Client, sixNodes, testEnv } from './support/server.ts';
import { type Received, type Receiver, startReceiver } from './support/webhook-receiver.ts';

const contract = carriedContract();
const ajv = new Ajv2020({ strict: false, allErrors: true });
addFormats.default(ajv);
ajv.addSchema({ $id: 'urn:jes:openapi', components: contract.components });
const validPayload = ajv.compile({ $ref: 'urn:jes:openapi#/components/schemas/WebhookPayload' });

let server: Running;
let receiver: Receiver;
let alice: Client;
let bob: Client;

beforeAll(async () => {
  receiver = await startReceiver();
  const config = readConfig(testEnv({ JES_WEBHOOK_ALLOW_HOSTS: 'localhost' }));
  server = await startServer(
    { ...config, webhooks: { ...config.webhooks, retryDelaysMs: [100, 100, 100], attemptTimeoutMs: 1000 } },
    pino({ level: config.logLevel }),
  );
  alice = await new Client(server.url).login('alice');
  bob = await new Client(server.url).login('bob');
});

afterAll(async () => {
  await server?.close();
  await receiver?.close();
});

const ofJob = (id: string, path?: string) => (request: Received) =>
  (path === undefined || request.path === path) && JSON.parse(request.body).data?.job_id === id;

/** The user's delivery of `job`, polled until `done` says it is as the test expects. */
async function deliveryOf(client: Client, job: string, done: (delivery: any) => boolean, type = 'job.ended') {
  for (let i = 0; i < 600; i++) {
    const list = (await client.get('/webhook/deliveries?limit=100')).body.deliveries as any[];
    const delivery = list.find((d) => d.job_id === job && d.type === type);
    if (delivery && done(delivery)) return delivery;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error(`the delivery of ${job} never got there`);
}

describe('the webhook routes', () => {
  it('reads a webhook with a secret made on first read and kept', async () => {
    const first = await alice.get('/webhook');
    expect(first.status).toBe(200);
    expect(first.body).toEqual({
      url: null,
      events: ['job.ended'],
      secret: expect.stringMatching(/^whsec_[A-Za-z0-9+/]+={0,2}$/),
      previous_secret_expires_at: null,
    });
    expect((await alice.get('/webhook')).body.secret).toBe(first.body.secret);
  });

  it.each([
    ['http://127.0.0.1:9/hook', '127.0.0.1 is a loopback address.'],
    ['http://169.254.169.254/latest/meta-data', '169.254.169.254 is a link-local address.'],
    ['http://[::1]/', '::1 is a loopback address.'],
    ['http://[::ffff:127.0.0.1]/', '::ffff:7f00:1 is a loopback address.'],
    ['http://10.1.2.3/', '10.1.2.3 is a private address.'],
    ['http://app.localhost/', 'app.localhost is a loopback host name.'],
    ['ftp://hooks.example.com/', 'The scheme ftp is not http or https.'],
    ['https://user:pw@hooks.example.com/', 'A URL with a user or password is not accepted.'],
  ])('refuses %s', async (url, reason) => {
    const reply = await bob.request('PUT', '/webhook', { json: { url } });
    expect(reply.status).toBe(422);
    expect(reply.body).toMatchObject({ code: 'webhook_url_refused', errors: [{ pointer: '/url', detail: reason }] });
  });

  it('refuses localhost unless the allow list names it (this server allows it)', async () => {
    const reply = await bob.request('PUT', '/webhook', { json: { url: 'http://localhost:1/x' } });
    expect(reply.status).toBe(200);
    expect((await bob.request('DELETE', '/webhook')).status).toBe(204);
  });

  it('sets, removes, and rotates', async () => {
    const set = await bob.request('PUT', '/webhook', {
      json: { url: 'https://hooks.example.com/jes', events: ['job.status_changed', 'job.ended'] },
    });
    expect(set.status).toBe(200);
    expect(set.body).toMatchObject({
      url: 'https://hooks.example.com/jes',
      events: ['job.status_changed', 'job.ended'],
    });
    const rotated = await bob.post('/webhook/secret');
    expect(rotated.status).toBe(200);
    expect(rotated.body.secret).not.toBe(set.body.secret);
    expect(rotated.body.previous_secret_expires_at).toMatch(/Z$/);
    expect((await bob.request('DELETE', '/webhook')).status).toBe(204);
    const after = (await bob.get('/webhook')).body;
    expect(after).toMatchObject({ url: null, secret: rotated.body.secret });
    expect((await bob.request('DELETE', '/webhook')).status).toBe(204);
  });
});

describe('deliveries', () => {
  it("delivers a job's end, signed, with the contract's payload", async () => {
    const { secret } = (await alice.request('PUT', '/webhook', { json: { url: `${receiver.url}/ok` } })).body;
    const id = await alice.start(sixNodes);
    const [request] = await receiver.received(ofJob(id));
    const payload = new Webhook(secret).verify(request!.body, request!.headers as Record<string, string>) as any;
    expect(validPayload(payload), JSON.stringify(validPayload.errors)).toBe(true);
    expect(payload).toMatchObject({ type: 'job.ended', data: { job_id: id, status: 'FINISHED' } });
    // The job as listings show it.
    const listed = (await alice.get('/job?limit=100')).body.job[id];
    expect(payload.data.job).toEqual(listed);
    expect(request!.headers['webhook-id']).toMatch(/^msg_[A-Za-z0-9]+$/);
    const delivery = await deliveryOf(alice, id, (d) => d.status === 'delivered');
    expect(delivery).toMatchObject({ id: request!.headers['webhook-id'], attempts: 1, last_error: null });
    expect(delivery.url).toBe(`${receiver.url}/ok`);
  });

  it('tells every status change when asked', async () => {
    await alice.request('PUT', '/webhook', {
      json: { url: `${receiver.url}/changes`, events: ['job.status_changed', 'job.ended'] },
    });
    const id = await alice.start(sixNodes);
    const requests = await receiver.received(ofJob(id, '/changes'), 3);
    const told = requests.map((r) => JSON.parse(r.body)).map((p) => `${p.type} ${p.data.status}`);
    expect(told.sort()).toEqual(['job.ended FINISHED', 'job.status_changed FINISHED', 'job.status_changed RUNNING']);
    for (const request of requests) expect(validPayload(JSON.parse(request.body))).toBe(true);
  });

  it('retries after 500s with the same webhook-id until one succeeds', async () => {
    let calls = 0;
    receiver.answer('/flaky', (_request, res) => void res.writeHead(++calls <= 2 ? 500 : 200).end());
    await alice.request('PUT', '/webhook', { json: { url: `${receiver.url}/flaky` } });
    const id = await alice.start(sixNodes);
    const attempts = await receiver.received(ofJob(id, '/flaky'), 3);
    expect(new Set(attempts.map((r) => r.headers['webhook-id'])).size).toBe(1);
    const delivery = await deliveryOf(alice, id, (d) => d.status === 'delivered');
    expect(delivery).toMatchObject({ attempts: 3, last_error: null, next_attempt_at: null });
  });

  it('gives up on a receiver that never answers, retries, and serves meanwhile', async () => {
    receiver.answer('/silent', () => {});
    await alice.request('PUT', '/webhook', { json: { url: `${receiver.url}/silent` } });
    const id = await alice.start(sixNodes);
    await receiver.received(ofJob(id, '/silent'));
    // While an attempt hangs, the server still answers.
    expect((await alice.get('/healthz')).status).toBe(200);
    const failed = await deliveryOf(alice, id, (d) => d.status === 'failed');
    // The shortened schedule: three retries after the first attempt.
    expect(failed).toMatchObject({ attempts: 4, last_error: 'timed out after 1 s', next_attempt_at: null });
  });

  it('does not follow a redirect', async () => {
    receiver.answer('/moved', (_request, res) => void res.writeHead(302, { location: '/ok' }).end());
    await alice.request('PUT', '/webhook', { json: { url: `${receiver.url}/moved` } });
    const id = await alice.start(sixNodes);
    const failed = await deliveryOf(alice, id, (d) => d.status === 'failed');
    expect(failed.last_error).toBe('HTTP 302 (redirect not followed)');
    expect(receiver.requests.filter(ofJob(id, '/ok'))).toEqual([]);
  });

  it('signs with both secrets for a day after a rotation', async () => {
    const before = (await alice.request('PUT', '/webhook', { json: { url: `${receiver.url}/ok` } })).body.secret;
    const after = (await alice.post('/webhook/secret')).body.secret;
    const id = await alice.start(sixNodes);
    const [request] = await receiver.received(ofJob(id, '/ok'));
    const headers = request!.headers as Record<string, string>;
    expect(headers['webhook-signature']!.split(' ')).toHaveLength(2);
    expect(new Webhook(after).verify(request!.body, headers)).toMatchObject({ data: { job_id: id } });
    expect(new Webhook(before).verify(request!.body, headers)).toMatchObject({ data: { job_id: id } });
  });

  it('refuses at delivery a name that resolves to a loopback address', async (context) => {
    const name = hostname();
    const address = await lookup(name).then(
      (found) => found.address,
      () => undefined,
    );
    if (address === undefined || !/^127\.|^::1$/.test(address)) {
      console.warn(`skipped: this machine's name ${name} does not resolve to a loopback address (${address})`);
      return context.skip();
    }
    const set = await alice.request('PUT', '/webhook', { json: { url: `http://${name}:${receiver.port}/ok` } });
    expect(set.status).toBe(200);
    const id = await alice.start(sixNodes);
    const delivery = await deliveryOf(alice, id, (d) => d.attempts >= 1);
    expect(delivery.last_error).toBe(`address refused: ${address}`);
    expect(receiver.requests.filter(ofJob(id))).toEqual([]);
  });

  it('drops the deliveries with their job, and queues none without a webhook', async () => {
    await alice.request('PUT', '/webhook', { json: { url: `${receiver.url}/ok` } });
    const id = await alice.start(sixNodes);
    await alice.waitFor(id);
    await deliveryOf(alice, id, () => true);
    expect((await alice.request('DELETE', `/job/${id}`)).status).toBe(204);
    const list = (await alice.get('/webhook/deliveries?limit=100')).body.deliveries as any[];
    expect(list.filter((d) => d.job_id === id)).toEqual([]);

    expect((await alice.request('DELETE', '/webhook')).status).toBe(204);
    const quiet = await alice.start(sixNodes);
    await alice.waitFor(quiet);
    // Queued in the transaction that ended it: none is there once it has ended.
    const after = (await alice.get('/webhook/deliveries?limit=100')).body.deliveries as any[];
    expect(after.filter((d) => d.job_id === quiet)).toEqual([]);
  });
});
