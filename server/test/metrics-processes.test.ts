// Metrics from every process on one PostgreSQL (issue 33): an API process (no workers) and a worker process apart,
// each with its ops listener (JES_METRICS_PORT=0, the URL read from the line it prints). One job goes in through
// the API and is solved by the worker: each process's /metrics has its own share (the API the request and the
// start, the worker the execution and the end), both read the same store gauges, and the API's own port no longer
// serves /metrics. Beside them, a server with JES_METRICS=off serves none.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ChildServer, node, serverCli, startChild } from '../../test/support/child-server.ts';
import type { Running } from '../src/start/main.ts';
import { sample, scrape } from './support/metrics-text.ts';
import { Client, freshPostgres, sixNodes, startTestServer, testEnv } from './support/server.ts';

const database = await freshPostgres();
if ('skip' in database) console.warn(`skipping the metrics processes test: ${database.skip}`);

const metricsLine = /metrics at (http:\/\/\S+\/metrics)/;
const token = 'worker-scrape-token';

describe.skipIf('skip' in database)('metrics of an API process and a worker process on PostgreSQL', () => {
  let api: ChildServer;
  let worker: ChildServer;
  let off: Running;
  let apiMetrics: string;
  let workerMetrics: string;

  beforeAll(async () => {
    const env = { DATABASE_URL: (database as { url: string }).url, JES_METRICS_PORT: '0', LOG_LEVEL: 'warn' };
    const launch = (args: string[], more: Record<string, string>, ready?: RegExp) =>
      startChild(node(serverCli, ...args), { env: testEnv({ ...env, ...more }), ...(ready ? { ready } : {}) });
    // The API first: its start-up migrates the database the worker then opens.
    api = await launch([], { JES_WORKERS: '0' });
    [worker, off] = await Promise.all([
      launch(['worker'], { JES_WORKERS: '1', JES_METRICS_TOKEN: token }, metricsLine),
      startTestServer({ ...env, JES_METRICS_PORT: '', JES_METRICS: 'off', JES_WORKERS: '0', LOG_LEVEL: 'silent' }),
    ]);
    apiMetrics = (await api.printed(metricsLine))[1]!;
    workerMetrics = worker.url;
  });

  afterAll(async () => {
    await Promise.all([api?.stop(), worker?.stop(), off?.close()]);
    await (database as { drop?: () => Promise<void> }).drop?.();
  });

  it("each process's /metrics has its own share of one job", async () => {
    const alice = await new Client(api.url).login('alice');
    const id = await alice.start(sixNodes, '?solver=exact');
    expect((await alice.waitFor(id)).status).toBe('FINISHED');
    const [fromApi, fromWorker] = await Promise.all([scrape(apiMetrics), scrape(workerMetrics, token)]);
    expect([fromApi.status, fromWorker.status]).toEqual([200, 200]);
    expect(fromApi.text).toMatch(/^jes_build_info\{.*,role="api"\} 1$/m);
    expect(fromWorker.text).toMatch(/^jes_build_info\{.*,role="worker"\} 1$/m);
    const both = (name: string, labels?: Record<string, string>) => [
      sample(fromApi.samples, name, labels),
      sample(fromWorker.samples, name, labels),
    ];
    // The API started the job and answered its requests; the worker ran its execution and so ended it.
    expect(both('jes_jobs_started_total', { use_case: 'maxcut' })).toEqual([1, 0]);
    expect(both('jes_executions_total', { solver: 'exact', outcome: 'success' })).toEqual([0, 1]);
    expect(both('jes_jobs_ended_total', { use_case: 'maxcut', status: 'FINISHED' })).toEqual([0, 1]);
    expect(both('jes_http_requests_total', { operation: 'startMaxCutJob', method: 'POST', status: '200' })).toEqual([
      1, 0,
    ]);
    // Each sends its own statements, through its own pool.
    for (const scraped of [fromApi, fromWorker]) {
      expect(sample(scraped.samples, 'jes_db_queries_total')).toBeGreaterThan(5);
      expect(sample(scraped.samples, 'jes_db_pool_connections', { state: 'total' })).toBeGreaterThan(0);
      expect(scraped.samples.has('jes_db_pool_connections{state="waiting"}')).toBe(true);
      // The same store, read by both.
      expect(sample(scraped.samples, 'jes_jobs', { status: 'FINISHED' })).toBe(1);
      expect(sample(scraped.samples, 'jes_queue_depth')).toBe(0);
      expect(scraped.text).toMatch(/^process_resident_memory_bytes \d/m);
    }
  });

  it('the ops listener takes /metrics off the API port, asks for its token, and answers nothing else', async () => {
    expect((await new Client(api.url).get('/metrics')).status).toBe(404);
    expect((await scrape(workerMetrics)).status).toBe(401);
    expect((await scrape(workerMetrics, 'not-the-token')).status).toBe(401);
    const other = await new Client(new URL(workerMetrics).origin).get('/job');
    expect([other.status, other.headers.get('content-type'), other.body.code]).toEqual([
      404,
      'application/problem+json; charset=utf-8',
      'not_found',
    ]);
  });

  it('a port in use for the ops listener stops start-up in a line naming JES_METRICS_PORT', async () => {
    const taken = new URL(apiMetrics).port;
    const env = { DATABASE_URL: (database as { url: string }).url, JES_WORKERS: '0', JES_METRICS_PORT: taken };
    await expect(startTestServer(env)).rejects.toThrow(`port ${taken} on 127.0.0.1 is in use`);
    await expect(startTestServer(env)).rejects.toThrow(/set JES_METRICS_PORT$/);
  });

  it('JES_METRICS=off serves no /metrics', async () => {
    const reply = await new Client(off.url).get('/metrics');
    expect([reply.status, reply.body.code]).toEqual([404, 'not_found']);
    expect(off.opsUrl).toBeUndefined();
  });
});
