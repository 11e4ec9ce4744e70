// GET /metrics on the embedded database (issue 33): a job started over HTTP and run to its end moves the counters
// and histograms it should (requests by operationId, the job's start and end, its execution, the statements sent,
// a data file's validation, a rate-limit refusal), the gauges read from the store say where the jobs are, the token
// is asked for and compared. (JES_METRICS=off and the ops listener: metrics-processes.test.ts, on PostgreSQL, where
// a server starts in a fraction of the embedded database's time.)
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Running } from '../src/start/main.ts';
import { sample, scrape } from './support/metrics-text.ts';
import { Client, sixNodes, sixNodesEdgeList, startTestServer } from './support/server.ts';
import { type Receiver, startReceiver } from './support/webhook-receiver.ts';

const token = 'scrape-token-0123456789';

describe('metrics on the embedded database', () => {
  let server: Running;
  let alice: Client;
  let receiver: Receiver;
  const metrics = () => scrape(`${server.url}/metrics`, token);

  beforeAll(async () => {
    // Logins limited to two per address and name, so that a third is a refusal to count.
    receiver = await startReceiver();
    server = await startTestServer({
      JES_WORKERS: '1',
      JES_METRICS_TOKEN: token,
      JES_RATE_LIMITS: 'login=2/60',
      JES_WEBHOOK_ALLOW_HOSTS: 'localhost',
    });
    alice = await new Client(server.url).login('alice');
  });
  afterAll(async () => {
    await server?.close();
    await receiver?.close();
  });

  it('asks for the token: none, a wrong one and a malformed header are 401 problems', async () => {
    const none = await new Client(server.url).get('/metrics');
    expect(none.status).toBe(401);
    expect(none.headers.get('content-type')).toMatch(/^application\/problem\+json/);
    expect(none.headers.get('www-authenticate')).toMatch(/^Bearer /);
    expect(none.body).toMatchObject({ status: 401, code: 'missing_token' });
    for (const header of [`Bearer ${token}x`, 'Bearer ', `Basic ${token}`, `Bearer ${token.slice(1)}`]) {
      const wrong = await new Client(server.url).get('/metrics', { authorization: header });
      expect([wrong.status, wrong.body.code], header).toEqual([401, 'invalid_token']);
    }
    // A user's access token is no metrics token.
    expect((await alice.get('/metrics')).status).toBe(401);
    const right = await metrics();
    expect(right.status).toBe(200);
    expect(right.contentType).toBe('text/plain; version=0.0.4; charset=utf-8');
    expect(right.text).toMatch(/^jes_build_info\{version="[^"]+",contract_version="[^"]+",role="api"\} 1$/m);
    // Node's process metrics, unprefixed.
    expect(right.text).toMatch(/^process_cpu_user_seconds_total \d/m);
    expect(right.text).toMatch(/^nodejs_eventloop_lag_seconds /m);
  });

  it('counts a job through to its end, its requests, statements and execution', async () => {
    const before = (await metrics()).samples;
    expect((await alice.request('PUT', '/webhook', { json: { url: `${receiver.url}/hook` } })).status).toBe(200);
    const id = await alice.start(sixNodes, '?solver=exact');
    // Its event stream, read to its end (the job's).
    const stream = await fetch(`${server.url}/job/${id}/events`, {
      headers: { authorization: `Bearer ${alice.token}` },
    });
    expect(stream.status).toBe(200);
    await stream.text();
    const job = await alice.waitFor(id);
    expect(job.status).toBe('FINISHED');
    await receiver.received((request) => request.body.includes(id) && request.body.includes('job.ended'));
    expect((await alice.get('/no/such/path')).status).toBe(404);
    // The gauges are read at most once a second: the next scrape is a fresh read.
    await new Promise((resolve) => setTimeout(resolve, 1100));
    const after = (await metrics()).samples;
    const moved = (name: string, labels?: Record<string, string>) =>
      sample(after, name, labels) - sample(before, name, labels);

    expect(moved('jes_jobs_started_total', { use_case: 'maxcut' })).toBe(1);
    expect(moved('jes_jobs_ended_total', { use_case: 'maxcut', status: 'FINISHED' })).toBe(1);
    expect(moved('jes_executions_total', { solver: 'exact', outcome: 'success' })).toBe(1);
    expect(moved('jes_execution_duration_seconds_count', { solver: 'exact', outcome: 'success' })).toBe(1);
    expect(moved('jes_execution_duration_seconds_sum', { solver: 'exact', outcome: 'success' })).toBeGreaterThan(0);
    expect(moved('jes_http_requests_total', { operation: 'startMaxCutJob', method: 'POST', status: '200' })).toBe(1);
    expect(moved('jes_http_requests_total', { operation: 'getJob', method: 'GET', status: '200' })).toBeGreaterThan(0);
    expect(moved('jes_http_requests_total', { operation: 'unmatched', method: 'GET', status: '404' })).toBe(1);
    expect(moved('jes_http_requests_total', { operation: 'streamJobEvents', method: 'GET', status: '200' })).toBe(1);
    expect(moved('jes_event_stream_events_total')).toBeGreaterThan(0);
    expect(sample(after, 'jes_event_streams_open')).toBe(0);
    expect(moved('jes_webhook_deliveries_total', { outcome: 'delivered' })).toBeGreaterThan(0);
    expect(moved('jes_webhook_delivery_duration_seconds_count')).toBe(
      moved('jes_webhook_deliveries_total', { outcome: 'delivered' }),
    );
    expect(moved('jes_http_request_duration_seconds_count', { operation: 'startMaxCutJob', method: 'POST' })).toBe(1);
    // The scrape before was counted once it ended; this one is not yet.
    expect(moved('jes_http_requests_total', { operation: 'metrics', method: 'GET', status: '200' })).toBe(1);
    // A job's start, claim, run and end: a few dozen statements, each timed.
    expect(moved('jes_db_queries_total')).toBeGreaterThan(5);
    expect(moved('jes_db_query_duration_seconds_count')).toBe(moved('jes_db_queries_total'));
    expect(sample(after, 'jes_jobs', { status: 'FINISHED' })).toBe(1);
    expect(sample(after, 'jes_jobs', { status: 'PENDING' })).toBe(0);
    expect(after.has('jes_jobs{status="CANCELLED"}')).toBe(true);
    expect(sample(after, 'jes_queue_depth')).toBe(0);
    expect(sample(after, 'jes_queue_oldest_pending_age_seconds')).toBe(0);
    // The embedded database has no pool.
    expect([...after.keys()].some((key) => key.startsWith('jes_db_pool_connections'))).toBe(false);
    // No job id, user or path in any label.
    const lines = (await metrics()).text.split('\n').filter((line) => !line.startsWith('#'));
    for (const secret of [id, 'alice', '/no/such/path', '/job/'])
      expect(lines.filter((line) => line.includes(secret))).toEqual([]);
  });

  it('counts a data file validation, a cancelled job, and a rate-limit refusal', async () => {
    const before = (await metrics()).samples;
    const upload = await alice.upload(sixNodesEdgeList);
    expect(upload.status).toBe(201);
    expect((await alice.validated(upload.body.data_file_identifier)).status).toBe('READY');
    // A job whose one execution runs for a minute, cancelled.
    const id = await alice.start(sixNodes, '?solver=local-search&time_limit_seconds=60');
    expect([200, 202]).toContain((await alice.post(`/job/${id}/cancel`)).status);
    expect((await alice.waitFor(id)).status).toBe('CANCELLED');
    // Two logins are allowed per window; alice used one in beforeAll.
    const logins = [];
    for (let i = 0; i < 2; i++)
      logins.push((await new Client(server.url).login('alice').catch((e: Error) => e)) instanceof Error);
    expect(logins).toEqual([false, true]);
    const after = (await metrics()).samples;
    const moved = (name: string, labels?: Record<string, string>) =>
      sample(after, name, labels) - sample(before, name, labels);
    expect(moved('jes_data_file_validations_total', { format: 'edge_list', outcome: 'valid' })).toBe(1);
    expect(moved('jes_jobs_ended_total', { use_case: 'maxcut', status: 'CANCELLED' })).toBe(1);
    expect(moved('jes_rate_limit_refusals_total', { policy: 'login' })).toBe(1);
    expect(moved('jes_http_requests_total', { operation: 'login', method: 'POST', status: '429' })).toBe(1);
  });
});
