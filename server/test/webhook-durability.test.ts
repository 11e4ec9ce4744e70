// A webhook message outlives a SIGKILL: it is queued in the transaction that ends its job, so a server killed
// after the job ended and before the message was delivered (its receiver down) delivers it once started again on
// the same data directory, with the same webhook-id and a signature standardwebhooks verifies. On PostgreSQL,
// two processes share one outbox and send each message once (FOR UPDATE SKIP LOCKED, no double claim).
import type { ChildProcess } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Webhook } from 'standardwebhooks';
import { afterAll, describe, expect, it } from 'vitest';
import { freePort } from '../../test/support/child-server.ts';
import { type ChildServer, serveChild } from './support/child-server.ts';
import { Client, freshPostgres, sixNodes } from './support/server.ts';
import { type Receiver, startReceiver } from './support/webhook-receiver.ts';

const children: ChildProcess[] = [];
const receivers: Receiver[] = [];
const dirs: string[] = [];

afterAll(async () => {
  for (const child of children) if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  await Promise.all(receivers.map((receiver) => receiver.close()));
  await Promise.all(dirs.map((dir) => rm(dir, { recursive: true, force: true })));
});

async function serve(env: Record<string, string>): Promise<ChildServer> {
  const server = await serveChild({ JES_WEBHOOK_ALLOW_HOSTS: 'localhost', ...env });
  children.push(server.child);
  return server;
}

async function deliveries(client: Client): Promise<any[]> {
  return (await client.get('/webhook/deliveries?limit=100')).body.deliveries;
}

it('delivers after a SIGKILL a message its job queued before it', async () => {
  const dataDir = await mkdtemp(join(tmpdir(), 'jes-webhooks-'));
  dirs.push(dataDir);
  const port = await freePort();
  const first = await serve({ JES_DATA_DIR: dataDir });
  const alice = await new Client(first.url).login('alice');
  const { secret } = (await alice.request('PUT', '/webhook', { json: { url: `http://localhost:${port}/hook` } })).body;
  const id = await alice.start(sixNodes);
  await alice.waitFor(id);
  // Nothing listens on the port: the first attempt fails and the message waits for its retry (5 s later).
  let queued: any;
  for (let i = 0; i < 400 && !queued; i++) {
    queued = (await deliveries(alice)).find((d) => d.job_id === id && d.last_error !== null);
    if (!queued) await new Promise((resolve) => setTimeout(resolve, 25));
  }
  expect(queued).toMatchObject({ status: 'pending', last_error: 'connection refused' });
  const exited = new Promise((resolve) => first.child.once('exit', resolve));
  first.child.kill('SIGKILL');
  await exited;

  const receiver = await startReceiver(port);
  receivers.push(receiver);
  const second = await serve({ JES_DATA_DIR: dataDir });
  const [request] = await receiver.received((r) => r.headers['webhook-id'] === queued.id);
  const payload = new Webhook(secret).verify(request!.body, request!.headers as Record<string, string>);
  expect(payload).toMatchObject({ type: 'job.ended', data: { job_id: id, status: 'FINISHED' } });
  const again = await new Client(second.url).login('alice');
  let delivered: any;
  for (let i = 0; i < 400 && delivered?.status !== 'delivered'; i++) {
    delivered = (await deliveries(again)).find((d) => d.id === queued.id);
    if (delivered?.status !== 'delivered') await new Promise((resolve) => setTimeout(resolve, 25));
  }
  expect(delivered).toMatchObject({ status: 'delivered', attempts: 2, last_error: null });
  await second.stop();
});

const database = await freshPostgres();
if ('skip' in database) console.warn(`skipping the two-process webhook test: ${database.skip}`);

describe.skipIf('skip' in database)('on PostgreSQL', () => {
  afterAll(async () => {
    await (database as { drop?: () => Promise<void> }).drop?.();
  });

  it('two processes send each message once', async () => {
    const receiver = await startReceiver();
    receivers.push(receiver);
    const env = { DATABASE_URL: (database as { url: string }).url, JES_MAX_ACTIVE_JOBS: '1000' };
    const servers = [await serve(env), await serve(env)];
    const clients = await Promise.all(servers.map((server) => new Client(server.url).login('alice')));
    await clients[0]!.request('PUT', '/webhook', {
      json: { url: `${receiver.url}/hook`, events: ['job.status_changed', 'job.ended'] },
    });
    const ids: string[] = [];
    for (let i = 0; i < 40; i++) ids.push(await clients[i % 2]!.start(sixNodes));
    // Each job: RUNNING and FINISHED as status changes, and its end.
    const requests = await receiver.received((r) => r.path === '/hook', ids.length * 3, 120);
    for (const id of ids) await clients[0]!.waitFor(id);
    const byId = new Map<string, number>();
    for (const request of receiver.requests) {
      const key = String(request.headers['webhook-id']);
      byId.set(key, (byId.get(key) ?? 0) + 1);
    }
    expect(requests.length).toBe(ids.length * 3);
    expect([...byId.values()].filter((count) => count > 1)).toEqual([]);
    const listed = (await clients[1]!.get('/webhook/deliveries?limit=100')).body.deliveries as any[];
    expect(listed.filter((d) => d.status !== 'delivered')).toEqual([]);
    await Promise.all(servers.map((server) => server.stop()));
  });
});
