// Tracing across processes (issue 33, 2): an API process (no workers) and a worker process on one fresh PostgreSQL,
// exporting OTLP/HTTP (the API in JSON, the worker in protobuf) to a receiver in this test. A job started and a data
// file uploaded over HTTP with a caller's traceparent are one trace each: the request's span continues the caller's,
// its statements are its children, and the worker process's spans (the queue wait, the execution and its solve, the
// validation) name the request's span as their parent, the trace context having travelled through the database. A
// problem carries the trace id its spans carry; log lines carry the trace id and span id. Without the OTEL variables
// nothing traces.
import { randomBytes } from 'node:crypto';
import { trace } from '@opentelemetry/api';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ChildServer, node, serverCli, startChild } from '../../test/support/child-server.ts';
import { readConfig } from '../src/config/config.ts';
import { type Running, startServer } from '../src/start/main.ts';
import { tracingSettings } from '../src/tracing/settings.ts';
import { logFields } from '../src/tracing/spans.ts';
import { otlpReceiver, type OtlpReceiver, type ReceivedSpan } from './support/otlp-receiver.ts';
import { Client, freshPostgres, sixNodes, sixNodesEdgeList, testEnv } from './support/server.ts';

const database = await freshPostgres();
if ('skip' in database) console.warn(`skipping the tracing test across processes: ${database.skip}`);

type Span = ReceivedSpan;

const hex = (bytes: number) => randomBytes(bytes).toString('hex');

describe.skipIf('skip' in database)('traces of an API process and a worker process on one PostgreSQL', () => {
  const children: ChildServer[] = [];
  let receiver: OtlpReceiver;
  let api: ChildServer;
  let client: Client;
  // A server in this process, on the same database, without the OTEL variables (they are the children's alone), and
  // its log lines: its logger made as createLogger makes it (start/logger.ts), into an array.
  const lines: Record<string, unknown>[] = [];
  const logger = pino(
    { level: 'info', mixin: logFields },
    { write: (line: string) => void lines.push(JSON.parse(line)) },
  );
  let untraced: Running;

  beforeAll(async () => {
    receiver = await otlpReceiver();
    const env = (overrides: Record<string, string>) =>
      testEnv({
        DATABASE_URL: (database as { url: string }).url,
        OTEL_EXPORTER_OTLP_ENDPOINT: receiver.url,
        OTEL_BSP_SCHEDULE_DELAY: '100',
        LOG_LEVEL: 'info',
        ...overrides,
      });
    const config = readConfig(testEnv({ JES_WORKERS: '0', DATABASE_URL: (database as { url: string }).url }));
    const [started] = await Promise.all([
      Promise.all([
        // The API process sends JSON, the worker process protobuf (the default): both exporters are used.
        startChild(node(serverCli), { env: env({ JES_WORKERS: '0', OTEL_EXPORTER_OTLP_PROTOCOL: 'http/json' }) }),
        startChild(node(serverCli, 'worker'), { env: env({ JES_WORKERS: '1' }), ready: /worker running/ }),
      ]),
      startServer(config, logger).then((server) => (untraced = server)),
    ]);
    children.push(...started);
    api = started[0];
    client = await new Client(api.url).login('alice');
  });

  afterAll(async () => {
    await Promise.all([...children.map((child) => child.stop()), untraced?.close()]);
    await receiver?.close();
    await (database as { drop?: () => Promise<void> }).drop?.();
  });

  /** The spans of `traceId` once `done` holds of them (within 10 s). */
  async function spansOf(traceId: string, done: (spans: Span[]) => boolean): Promise<Span[]> {
    for (let i = 0; i < 200; i++) {
      const found = receiver.spans.filter((s) => s.traceId === traceId);
      if (done(found)) return found;
      await new Promise((r) => setTimeout(r, 50));
    }
    throw new Error(`the spans of ${traceId} never came: ${JSON.stringify(receiver.spans.map((s) => s.name))}`);
  }

  it('continues the caller’s trace from the request through the database to the worker process', async () => {
    const [traceId, callerSpan] = [hex(16), hex(8)];
    const started = await client.request('POST', '/problem/maxcut', {
      json: sixNodes,
      headers: { traceparent: `00-${traceId}-${callerSpan}-01` },
    });
    expect(started.status).toBe(200);
    const jobId: string = started.body.job;
    expect((await client.waitFor(jobId)).status).toBe('FINISHED');

    // Each process exports its spans in its own batches: wait for the API's request as well as the worker's execution.
    const spans = await spansOf(
      traceId,
      (found) =>
        found.some((s) => s.name.startsWith('execution ')) && found.some((s) => s.name === 'POST /problem/maxcut'),
    );
    const byId = new Map(spans.map((s) => [s.spanId, s]));
    const request = spans.find((s) => s.name === 'POST /problem/maxcut')!;
    expect(request, JSON.stringify(spans.map((s) => s.name))).toBeDefined();
    expect(request).toMatchObject({ parentSpanId: callerSpan, kind: 2, service: 'jes-server', encoding: 'json' });
    expect(request.attributes).toMatchObject({
      'jes.operation_id': 'startMaxCutJob',
      'http.route': '/problem/maxcut',
      'http.request.method': 'POST',
      'http.response.status_code': 200,
    });

    // The request's statements, under it (directly or through its transaction), with no value in their text.
    const statements = spans.filter((s) => s.name === 'db.query');
    const underRequest = (s: Span): boolean =>
      s.parentSpanId === request.spanId || (!!s.parentSpanId && underRequest(byId.get(s.parentSpanId) ?? s));
    const inserted = statements.find((s) => String(s.attributes['db.query.text']).includes('INSERT INTO jobs'))!;
    expect(inserted).toBeDefined();
    expect(underRequest(inserted)).toBe(true);
    expect(inserted.attributes).toMatchObject({ 'db.system': 'postgresql', 'db.operation.name': 'WITH' });
    expect(statements.every((s) => !String(s.attributes['db.query.text']).includes(jobId))).toBe(true);

    // The worker process's spans: the queue wait and the execution children of the request, the solve in the execution.
    const queued = spans.find((s) => s.name === 'job.queued')!;
    const execution = spans.find((s) => s.name.startsWith('execution '))!;
    expect(queued).toMatchObject({ parentSpanId: request.spanId, service: 'jes-worker' });
    expect(execution).toMatchObject({ parentSpanId: request.spanId, service: 'jes-worker', encoding: 'protobuf' });
    expect(execution.attributes).toMatchObject({ 'jes.job_id': jobId, 'jes.execution.outcome': 'SUCCESS' });
    expect(queued.startTimeUnixNano).toBeGreaterThanOrEqual(request.startTimeUnixNano);
    expect(queued.endTimeUnixNano).toBeLessThanOrEqual(execution.startTimeUnixNano + 1_000_000n);
    const solver = execution.name.slice('execution '.length);
    expect(spans.find((s) => s.name === `solve ${solver}`)).toMatchObject({ parentSpanId: execution.spanId });
    // The outcome's statement, in the worker process, under the execution.
    const recorded = statements.find(
      (s) => s.service === 'jes-worker' && underRequest(s) && s.parentSpanId !== request.spanId,
    );
    expect(recorded).toBeDefined();

    // The request's log line names its trace and span.
    const line = await api.printed(new RegExp(`\\{[^\\n]*"trace_id":"${traceId}"[^\\n]*"msg":"request"[^\\n]*\\}`));
    expect(JSON.parse(line[0])).toMatchObject({ span_id: request.spanId, url: '/problem/maxcut', status: 200 });
  });

  it('validates an uploaded data file in the upload’s trace', async () => {
    const [traceId, callerSpan] = [hex(16), hex(8)];
    const form = new FormData();
    form.set('file', new Blob([sixNodesEdgeList]), 'six.txt');
    form.set('problem_id', 'maxcut');
    form.set('name', 'six.txt');
    const uploaded = await client.request('POST', '/data_file', {
      body: form,
      headers: { traceparent: `00-${traceId}-${callerSpan}-01` },
    });
    expect(uploaded.status).toBe(201);
    expect((await client.validated(uploaded.body.data_file_identifier)).status).toBe('READY');
    // The worker's validation span came before the API's request span in a full run: wait for both.
    const spans = await spansOf(
      traceId,
      (found) => found.some((s) => s.name === 'data_file.validate') && found.some((s) => s.name === 'POST /data_file'),
    );
    const request = spans.find((s) => s.name === 'POST /data_file')!;
    expect(request).toMatchObject({ parentSpanId: callerSpan });
    expect(request.attributes['jes.operation_id']).toBe('uploadDataFile');
    expect(spans.find((s) => s.name === 'data_file.validate')).toMatchObject({
      parentSpanId: request.spanId,
      service: 'jes-worker',
    });
  });

  it('gives a problem the trace id its spans carry', async () => {
    const missing = await client.get('/job/AAAAAAAAAAAA');
    expect(missing.status).toBe(404);
    expect(missing.body).toMatchObject({ code: 'job_not_found', request_id: expect.any(String) });
    expect(missing.body.trace_id).toMatch(/^[0-9a-f]{32}$/);
    const spans = await spansOf(missing.body.trace_id, (found) => found.some((s) => s.kind === 2));
    const span = spans.find((s) => s.kind === 2)!;
    expect(span.name).toBe('GET /job/{job_id}');
    expect(span.parentSpanId).toBeUndefined();
    expect(span.attributes).toMatchObject({ 'jes.operation_id': 'getJob', 'http.response.status_code': 404 });
    expect(span.attributes['jes.request_id']).toBe(missing.body.request_id);
    // Its statement (the job looked up) is in the same trace, under it.
    expect(spans.find((s) => s.name === 'db.query')).toMatchObject({ parentSpanId: span.spanId });
  });

  it('traces nothing without the OTEL variables: no trace id in problems or log lines', async () => {
    const missing = await (
      await new Client(untraced.url).login('alice')
    ).get('/job/AAAAAAAAAAAA', { traceparent: `00-${hex(16)}-${hex(8)}-01` });
    expect(missing.status).toBe(404);
    expect(missing.body.request_id).toEqual(expect.any(String));
    expect(missing.body).not.toHaveProperty('trace_id');
    expect(lines.some((l) => l.msg === 'request')).toBe(true);
    // A line with fields of its own, outside any span (pino merges them into what the mixin returns).
    logger.warn({ what: 'a probe' }, 'probe');
    expect(lines.at(-1)).toMatchObject({ what: 'a probe', msg: 'probe' });
    expect(lines.filter((l) => 'trace_id' in l)).toEqual([]);
    // No tracer provider was registered: spans are the API's no-ops.
    expect(trace.getTracer('probe').startSpan('probe').isRecording()).toBe(false);
  });
});

it.each([
  [{}, undefined],
  [{ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://collector:4318' }, [{ kind: 'otlp', protocol: 'http/protobuf' }]],
  [
    { OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: 'http://c/v1/traces', OTEL_EXPORTER_OTLP_PROTOCOL: 'http/json' },
    [{ kind: 'otlp', protocol: 'http/json' }],
  ],
  [{ OTEL_TRACES_EXPORTER: 'console' }, [{ kind: 'console' }]],
  [{ OTEL_TRACES_EXPORTER: 'none', OTEL_EXPORTER_OTLP_ENDPOINT: 'http://c' }, undefined],
  [{ OTEL_SDK_DISABLED: 'true', OTEL_TRACES_EXPORTER: 'otlp' }, undefined],
  [{ OTEL_EXPORTER_OTLP_ENDPOINT: '' }, undefined],
])('tracing settings from %j', (env, exporters) => {
  expect(tracingSettings(env, 'worker')?.exporters).toEqual(exporters);
});

it.each([
  [{ OTEL_TRACES_EXPORTER: 'zipkin' }, 'OTEL_TRACES_EXPORTER: zipkin is not supported'],
  [
    { OTEL_EXPORTER_OTLP_ENDPOINT: 'http://c', OTEL_EXPORTER_OTLP_PROTOCOL: 'grpc' },
    'OTEL_EXPORTER_OTLP_PROTOCOL: grpc',
  ],
])('refuses %j', (env, message) => {
  expect(() => tracingSettings(env, 'api')).toThrow(message);
});

it('names the service by its role unless OTEL_SERVICE_NAME does', () => {
  const env = { OTEL_TRACES_EXPORTER: 'otlp' };
  expect(tracingSettings(env, 'api')?.serviceName).toBe('jes-server');
  expect(tracingSettings(env, 'worker')?.serviceName).toBe('jes-worker');
  expect(tracingSettings({ ...env, OTEL_SERVICE_NAME: 'jes-eu' }, 'api')?.serviceName).toBe('jes-eu');
});
