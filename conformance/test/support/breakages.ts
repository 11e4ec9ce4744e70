// One deliberately broken behaviour per important check, each as a Breakage of the proxy: the suite run
// against the proxy with `only: [check]` must fail that check. A team's own checks too (team-checks.mjs, loaded as
// --checks loads a module): the run then takes them as `checks`.
import { createHmac, randomBytes, randomUUID } from 'node:crypto';
import { createServer } from 'node:http';
import { join } from 'node:path';
import { type ConformanceOptions, loadChecks } from '../../src/index.ts';
import { type Answer, type Breakage, editJson, type Exchanged, jsonAnswer } from './broken-proxy.ts';
import { users, webhookListen } from './targets.ts';

/** The checks of support/team-checks.mjs, a module of a team's own. */
export const teamChecks = await loadChecks([join(import.meta.dirname, 'team-checks.mjs')]);

const pathOf = (r: Exchanged) => r.url.split('?')[0]!;
const queryOf = (r: Exchanged) => new URLSearchParams(r.url.split('?')[1] ?? '');
const alice = (tools: { token(user: string, password: string): Promise<string> }) => tools.token('alice', users.alice);

function problem(status: number, code: string, extra: Record<string, unknown> = {}): Answer {
  const requestId = 'broken-proxy-request';
  return jsonAnswer(
    status,
    {
      type: `urn:jes:problem:${code}`,
      title: code,
      status,
      detail: 'from the broken proxy',
      code,
      request_id: requestId,
      ...extra,
    },
    { 'x-request-id': requestId },
  );
}

/** The 401 a deployment gives a request without a token. */
function missingToken(): Answer {
  const answer = problem(401, 'missing_token');
  return { ...answer, headers: { ...answer.headers, 'www-authenticate': 'Bearer realm="jes"' } };
}

/** The problem `code` of an answer, if it has one. */
function codeOf(answer: Answer): string | undefined {
  try {
    return JSON.parse(answer.body.toString('utf8'))?.code;
  } catch {
    return undefined;
  }
}

/** What a deployment that reads a POST body before authenticating says about a bad one (undefined: a good one). */
function bodyRefusal(r: Exchanged): Answer | undefined {
  if (/^\/problem\/[^/]+$/.test(pathOf(r))) {
    if (r.body.length >= 4_194_304) return problem(413, 'payload_too_large', { max_bytes: 4_194_304 });
    try {
      JSON.parse(r.body.toString('utf8'));
    } catch {
      return problem(400, 'malformed_json');
    }
  }
  const boundary = /boundary=([^;]+)/.exec(r.headers['content-type'] ?? '')?.[1];
  if (pathOf(r) === '/data_file' && boundary && !r.body.includes(`--${boundary}--`))
    return problem(400, 'invalid_request');
  return undefined;
}

/** Every job object in a body (an envelope or a page), changed by `edit`. */
function eachJob(answer: Answer, edit: (job: any) => void): Answer {
  return editJson(answer, (body) => {
    for (const job of Object.values<any>(body?.job && typeof body.job === 'object' ? body.job : {}))
      if (job?.status) edit(job);
  });
}

/** Every answer in a body (executions' data and outputs) that has `field` (`cut_value`, `energy`), changed by `edit`. */
function eachAnswer(answer: Answer, field: string, edit: (data: any) => void): Answer {
  const ours = (data: any) => data && typeof data === 'object' && field in data;
  const answerWithJobs = eachJob(answer, (job) =>
    Object.values<any>(job.executions ?? {}).forEach((e) => ours(e.data) && edit(e.data)),
  );
  return editJson(answerWithJobs, (body) => Object.values<any>(body?.outputs ?? {}).forEach((o) => ours(o) && edit(o)));
}

/** Every max-cut answer in a body, changed by `edit`. */
const eachCut = (answer: Answer, edit: (data: any) => void) => eachAnswer(answer, 'cut_value', edit);
/** Every QUBO answer in a body, changed by `edit`. */
const eachQuboAnswer = (answer: Answer, edit: (data: any) => void) => eachAnswer(answer, 'energy', edit);

/**
 * A documented timestamp (`MM/DD/YYYY, HH:MM:SS`, UTC) `hours` later: the instant moves, so the date rolls
 * over at midnight (wrapping the hour alone made 23:30 + 2 h read 01:30 of the same day, 22 h early).
 */
export function shiftHours(stamp: string, hours: number): string {
  const parts = /^(\d\d)\/(\d\d)\/(\d{4}), (\d\d:\d\d:\d\d)$/.exec(stamp);
  if (!parts) throw new Error(`not a documented timestamp: "${stamp}"`);
  const [, month, day, year, time] = parts;
  const shifted = new Date(Date.parse(`${year}-${month}-${day}T${time}Z`) + hours * 3_600_000).toISOString();
  const [, y, m, d, t] = /^(\d{4})-(\d\d)-(\d\d)T(\d\d:\d\d:\d\d)/.exec(shifted)!;
  return `${m}/${d}/${y}, ${t}`;
}

/** The key of the gateway below: a run sends it with `headers` (-H 'X-Api-Key: …'); never printed by the suite. */
export const apiKey = { 'X-Api-Key': 'gateway-key-7f3a9c1e' };

/** A gateway in front of the deployment: 401 to a request without its API key, else the request as it is. */
function gateway(r: Exchanged): Exchanged | Answer {
  if (r.headers['x-api-key'] === apiKey['X-Api-Key']) return r;
  return {
    status: 401,
    headers: { 'content-type': 'text/plain', 'www-authenticate': 'ApiKey header="X-Api-Key"' },
    body: Buffer.from('X-Api-Key missing or wrong'),
  };
}

export interface BrokenBehaviour {
  what: string;
  /** The check that must fail. */
  check: string;
  /** What one of its failures must say. */
  message: RegExp;
  breakage: Breakage;
  /** What the run needs besides (the webhook checks: an address to listen on). */
  options?: Partial<ConformanceOptions>;
}

export const brokenBehaviours: BrokenBehaviour[] = [
  {
    what: 'answers 500 to GET /data_file',
    check: 'not_a_server_error',
    message: /server error \(500/,
    breakage: {
      request: (r) => (r.method === 'GET' && pathOf(r) === '/data_file' ? problem(500, 'internal_error') : r),
    },
  },
  {
    what: 'answers GET /problem with 203',
    check: 'status_code_conformance',
    message: /203 is not documented/,
    breakage: { response: (r, a) => (pathOf(r) === '/problem' ? { ...a, status: 203 } : a) },
  },
  {
    what: 'sends problems as application/json',
    check: 'content_type_conformance',
    message: /Content-Type is "application\/json"/,
    breakage: {
      response: (_, a) =>
        a.status >= 400 ? { ...a, headers: { ...a.headers, 'content-type': 'application/json' } } : a,
    },
  },
  {
    what: 'leaves X-Request-Id out of its 404s',
    check: 'response_headers_conformance',
    message: /X-Request-Id is missing/,
    breakage: {
      response: (_, a) =>
        a.status === 404
          ? {
              ...a,
              headers: Object.fromEntries(
                Object.entries(a.headers).filter(([k]) => k.toLowerCase() !== 'x-request-id'),
              ),
            }
          : a,
    },
  },
  {
    what: 'leaves summary out of jobs',
    check: 'response_schema_conformance',
    message: /required property 'summary'/,
    breakage: { response: (_, a) => eachJob(a, (job) => delete job.summary) },
  },
  {
    what: 'answers GET /job 1.5 s late, against a budget of a second',
    check: 'response_time',
    message: /^listJobs GET \/job\?limit=1 → 200 in \d{4,} ms \(sent by \w+\): over the budget of 1000 ms$/m,
    breakage: {
      response: async (r, a) => {
        if (r.method === 'GET' && pathOf(r) === '/job') await new Promise((resolve) => setTimeout(resolve, 1500));
        return a;
      },
    },
    options: { maxResponseTimeMs: 1000 },
  },
  {
    what: 'skips authentication on GET /problem',
    check: 'missing_auth',
    message: /listProblems without a token: expected 401 missing_token, got 200/,
    breakage: {
      request: async (r, tools) =>
        pathOf(r) === '/problem' && !r.headers.authorization
          ? { ...r, headers: { ...r.headers, authorization: `Bearer ${await alice(tools)}` } }
          : r,
    },
  },
  {
    what: 'accepts any token on GET /job',
    check: 'ignored_auth',
    message: /listJobs with .*: expected 401 invalid_token, got 200/,
    breakage: {
      request: async (r, tools) =>
        r.method === 'GET' && pathOf(r) === '/job' && r.headers.authorization
          ? { ...r, headers: { ...r.headers, authorization: `Bearer ${await alice(tools)}` } }
          : r,
    },
  },
  {
    // Deployments sit behind gateways that want their own key: a run without it is refused from its first login.
    what: 'sits behind a gateway that wants an X-Api-Key header',
    check: 'ignored_auth',
    message:
      /^logging in as alice: expected 200 with an access_token, got 401 with a text\/plain body "X-Api-Key missing/,
    breakage: { request: gateway },
  },
  {
    what: 'asks for a token before routing',
    check: 'unsupported_method',
    message:
      /GET \/login without a token: expected 405 method_not_allowed, got 401 missing_token[\s\S]*PROPFIND \/job without a token: expected 405 method_not_allowed, got 401 missing_token[\s\S]*a path without operations without a token: expected 404 not_found, got 401 missing_token/,
    breakage: {
      response: (r, a) =>
        !r.headers.authorization && (a.status === 405 || codeOf(a) === 'not_found') ? missingToken() : a,
    },
  },
  {
    what: 'reads the body before authenticating',
    check: 'missing_auth',
    message:
      /startJob with a malformed JSON body, without a token: expected 401 missing_token, got 400 malformed_json[\s\S]*uploadDataFile with a multipart body that never ends, without a token: expected 401 missing_token, got 400 invalid_request[\s\S]*startJob with a body of 4194304 bytes \(the inline limit\), without a token: expected 401 missing_token, got 413 payload_too_large/,
    breakage: { request: (r) => (r.method === 'POST' && !r.headers.authorization && bodyRefusal(r)) || r },
  },
  {
    what: 'names a method too many in Allow',
    check: 'unsupported_method',
    message: /GET \/login: Allow is "POST, PATCH": PATCH not documented for the path \(the path documents POST\)/,
    breakage: {
      response: (_, a) =>
        a.status === 405 ? { ...a, headers: { ...a.headers, allow: `${a.headers.allow}, PATCH` } } : a,
    },
  },
  // Regression: this failure read "expected 405 method_not_allowed, got 405", naming nothing that was wrong.
  {
    what: 'answers 405 in plain text, not as a problem',
    check: 'unsupported_method',
    message:
      /GET \/login: expected 405 method_not_allowed, got 405 with a text\/plain body "Method Not Allowed", not a problem/,
    breakage: {
      response: (_, a) =>
        a.status === 405
          ? { ...a, headers: { ...a.headers, 'content-type': 'text/plain' }, body: Buffer.from('Method Not Allowed') }
          : a,
    },
  },
  {
    what: 'leaves Allow out of its 405s',
    check: 'unsupported_method',
    message: /GET \/login: Allow is missing; it must name POST/,
    breakage: {
      response: (_, a) =>
        a.status === 405
          ? {
              ...a,
              headers: Object.fromEntries(Object.entries(a.headers).filter(([k]) => k.toLowerCase() !== 'allow')),
            }
          : a,
    },
  },
  {
    what: 'answers contract mismatches of a job with 422',
    check: 'negative_data_rejection',
    message: /expected 400 invalid_request, got 422 invalid_input/,
    breakage: {
      response: (r, a) =>
        r.method === 'POST' && pathOf(r) === '/problem/maxcut' && a.status === 400
          ? editJson({ ...a, status: 422 }, (b) =>
              Object.assign(b, { status: 422, code: 'invalid_input', type: 'urn:jes:problem:invalid_input' }),
            )
          : a,
    },
  },
  {
    what: 'refuses a status filter',
    check: 'positive_data_acceptance',
    message: /refused as invalid: 400 invalid_request/,
    breakage: {
      request: (r) =>
        pathOf(r) === '/job' && queryOf(r).has('status')
          ? problem(400, 'invalid_request', { errors: [{ pointer: '/query/status', detail: 'not here' }] })
          : r,
    },
  },
  {
    what: 'refuses job bodies from 4,000,000 bytes',
    check: 'limits',
    message: /4194303 bytes .*expected 200, got 413/,
    breakage: {
      request: (r) => (r.body.length >= 4_000_000 ? problem(413, 'payload_too_large', { max_bytes: 4_000_000 }) : r),
    },
  },
  {
    what: 'refuses login bodies from 60,000 bytes',
    check: 'limits',
    message: /a login body of 65535 bytes: expected 200, got 413 payload_too_large/,
    breakage: {
      request: (r) =>
        pathOf(r) === '/login' && r.body.length >= 60_000
          ? problem(413, 'payload_too_large', { max_bytes: 60_000 })
          : r,
    },
  },
  {
    what: 'refuses uploads with a description',
    check: 'positive_data_acceptance',
    message:
      /uploadDataFile with generated fields, case \d+ of seed \d+: the fields .* was refused as invalid: 422 invalid_input/,
    breakage: {
      request: (r) =>
        r.method === 'POST' && pathOf(r) === '/data_file' && r.body.includes('name="description"')
          ? problem(422, 'invalid_input', { errors: [{ pointer: '/description', detail: 'not here' }] })
          : r,
    },
  },
  {
    what: 'leaves a solver out of the output',
    check: 'lifecycle',
    message: /output of .* differs/,
    breakage: {
      response: (r, a) =>
        /\/output$/.test(pathOf(r)) ? editJson(a, (b) => delete b.outputs?.[Object.keys(b.outputs ?? {})[0]!]) : a,
    },
  },
  {
    what: 'does not delete data files',
    check: 'use_after_free',
    message: /reading a deleted data file: expected 404/,
    breakage: {
      request: (r) =>
        r.method === 'DELETE' ? { status: 204, headers: { 'x-request-id': 'broken-proxy' }, body: Buffer.alloc(0) } : r,
    },
  },
  {
    what: 'cannot find a job at its first read',
    check: 'ensure_resource_availability',
    message: /right after it started: expected 200, got 404/,
    breakage: firstReadMissing(),
  },
  {
    what: 'adds 1 to every cut',
    check: 'maxcut_semantics',
    message: /but its partition cuts/,
    breakage: { response: (_, a) => eachCut(a, (d) => (d.cut_value += 1)) },
  },
  // A business rule of a team's own check (team-checks.mjs).
  {
    what: 'answers a cut under half the weight',
    check: 'maxcut_half_weight',
    message: /'s cut is 0, under half the weight \([\d.]+\)/,
    breakage: { response: (_, a) => eachCut(a, (d) => (d.cut_value = 0)) },
    options: { checks: teamChecks },
  },
  {
    what: 'claims a cut of nothing optimal',
    check: 'maxcut_semantics',
    message: /claims optimal with 0/,
    breakage: {
      response: (_, a) =>
        eachCut(a, (d) => Object.assign(d, { cut_value: 0, partition: d.partition.map(() => 0), optimal: true })),
    },
  },
  {
    what: 'a wrong QUBO energy',
    check: 'qubo_semantics',
    message: /energy -?[\d.]+, but its assignment has energy/,
    breakage: { response: (_, a) => eachQuboAnswer(a, (d) => (d.energy += 1)) },
  },
  {
    what: 'a falsely optimal QUBO answer',
    check: 'qubo_semantics',
    message: /claims optimal with 0; the minimum energy is -11/,
    breakage: {
      response: (_, a) =>
        eachQuboAnswer(a, (d) => Object.assign(d, { energy: 0, assignment: d.assignment.map(() => 0), optimal: true })),
    },
  },
  {
    what: "shows bob alice's jobs",
    check: 'isolation',
    message: /reading the job of another user: expected 404 job_not_found, got 200/,
    breakage: {
      request: async (r, tools) => {
        const payload = r.headers.authorization?.split('.')[1];
        const user = payload ? JSON.parse(Buffer.from(payload, 'base64url').toString()).sub : undefined;
        return user === 'bob' && /^\/job\/[A-Z0-9]{12}$/.test(pathOf(r))
          ? { ...r, headers: { ...r.headers, authorization: `Bearer ${await alice(tools)}` } }
          : r;
      },
    },
  },
  {
    what: 'ignores Idempotency-Key',
    check: 'idempotency',
    message: /starting a job twice with one key answered jobs [A-Z0-9]{12} and [A-Z0-9]{12}/,
    breakage: {
      request: (r) => ({
        ...r,
        headers: Object.fromEntries(
          Object.entries(r.headers).filter(([name]) => name.toLowerCase() !== 'idempotency-key'),
        ),
      }),
    },
  },
  {
    what: 'answers 204 to DELETE /job without deleting anything',
    check: 'job_deletion',
    message: /reading a deleted job: expected 404 job_not_found, got 200/,
    breakage: {
      request: (r) =>
        r.method === 'DELETE' && /^\/job\/[^/]+$/.test(pathOf(r))
          ? { status: 204, headers: { 'x-request-id': 'broken-proxy' }, body: Buffer.alloc(0) }
          : r,
    },
  },
  {
    what: 'writes timestamps as YYYY-MM-DD HH:MM:SS',
    check: 'timestamps',
    message: /is not MM\/DD\/YYYY, HH:MM:SS/,
    breakage: {
      response: (_, a) =>
        eachJob(a, (job) => (job.started_at = job.started_at.replace(/^(\d\d)\/(\d\d)\/(\d{4}),/, '$3-$1-$2'))),
    },
  },
  {
    what: 'writes local time (UTC+2), not UTC',
    check: 'timestamps',
    message: /are 7200 s apart/,
    breakage: { response: (_, a) => eachJob(a, (job) => (job.started_at = shiftHours(job.started_at, 2))) },
  },
  {
    what: 'sets end_at before a job ends',
    check: 'timestamps',
    message: /end_at is ".*" while it is (PENDING|RUNNING)/,
    breakage: { response: (_, a) => eachJob(a, (job) => job.end_at || (job.end_at = job.started_at)) },
  },
];

const isJobStream = (r: Exchanged) => /^\/job\/[^/]+\/events$/.test(pathOf(r));
const isUserStream = (r: Exchanged) => pathOf(r) === '/events';
const isEvent = (block: string) => /^data:/m.test(block);

/** An event block's `event` and its data parsed (undefined when it is not JSON). */
function eventOf(block: string): { event: string; data: any } {
  const event = /^event: ?(.*)$/m.exec(block)?.[1] ?? 'message';
  try {
    return { event, data: JSON.parse(/^data: ?(.*)$/m.exec(block)?.[1] ?? '') };
  } catch {
    return { event, data: undefined };
  }
}

/** The block with its data replaced. */
const withData = (block: string, data: unknown) => block.replace(/^data: ?.*$/m, () => `data: ${JSON.stringify(data)}`);

/** A stream's events, each changed by `edit` (a string: the blocks to send instead, '' for none) on streams `which` takes. */
function eachEvent(which: (r: Exchanged) => boolean, edit: (block: string, n: number) => string): Breakage {
  return {
    async *events(request, events) {
      let n = 0;
      for await (const block of events) yield which(request) && isEvent(block) ? edit(block, ++n) : block;
    },
  };
}

/** A job stream's second event held back until after its third. */
function secondAfterThird(): Breakage {
  return {
    async *events(request, events) {
      let n = 0;
      let held: string | undefined;
      for await (const block of events) {
        if (!isJobStream(request) || !isEvent(block)) {
          yield block;
          continue;
        }
        if (++n === 2) held = block;
        else yield n === 3 && held ? block + held : block;
      }
    },
  };
}

/** A resumed stream's Last-Event-ID and last_event_id moved by `delta` before the server reads them. */
function resumeShifted(delta: number): Breakage {
  const shift = (value: string) => String(Math.max(0, Number(value) + delta));
  return {
    request: (r) => {
      if (!isJobStream(r)) return r;
      const headers = { ...r.headers };
      if (/^\d+$/.test(headers['last-event-id'] ?? '')) headers['last-event-id'] = shift(headers['last-event-id']!);
      const query = queryOf(r);
      const value = query.get('last_event_id');
      if (value && /^\d+$/.test(value)) query.set('last_event_id', shift(value));
      return { ...r, url: query.size ? `${pathOf(r)}?${query}` : pathOf(r), headers };
    },
  };
}

/**
 * A relay the webhook is set to instead of the suite's listener (PUT /webhook's URL rewritten): each delivery is
 * passed on with its headers changed by `edit` (`attempt`: 1 for a webhook-id's first, 2 for its retry…), and the
 * listener's answer passed back. The relay listens on the loopback for as long as the test process lives.
 */
function webhookRelay(edit: (headers: Record<string, string>, attempt: number) => void): Breakage {
  const targets = new Map<string, string>();
  const attempts = new Map<string, number>();
  let relay: Promise<string> | undefined;
  const start = () =>
    (relay ??= new Promise((resolve) => {
      const server = createServer((req, res) => {
        const chunks: Buffer[] = [];
        req.on('data', (chunk: Buffer) => chunks.push(chunk));
        req.on('end', async () => {
          const headers: Record<string, string> = {};
          for (const [k, v] of Object.entries(req.headers))
            if (k.startsWith('webhook-') || k === 'content-type') headers[k] = String(v);
          const attempt = (attempts.get(headers['webhook-id'] ?? '') ?? 0) + 1;
          attempts.set(headers['webhook-id'] ?? '', attempt);
          edit(headers, attempt);
          try {
            const answer = await fetch(targets.get(req.url ?? '')!, {
              method: 'POST',
              headers,
              body: Buffer.concat(chunks),
            });
            res.writeHead(answer.status).end();
          } catch {
            res.writeHead(502).end();
          }
        });
      });
      server.unref();
      server.listen(0, '127.0.0.1', () => resolve(`http://127.0.0.1:${(server.address() as { port: number }).port}`));
    }));
  return {
    async request(r) {
      if (r.method !== 'PUT' || pathOf(r) !== '/webhook') return r;
      const body = JSON.parse(r.body.toString('utf8'));
      const path = `/${randomUUID()}`;
      targets.set(path, body.url);
      return { ...r, body: Buffer.from(JSON.stringify({ ...body, url: `${await start()}${path}` })) };
    },
  };
}

// The streams' and webhooks' breakages (issue 31), after the helpers they are made with.
brokenBehaviours.push(
  {
    what: "sends a job's second event after its third",
    check: 'job_events',
    message: /ids must increase/,
    breakage: secondAfterThird(),
  },
  {
    what: 'leaves at out of status events',
    check: 'job_events',
    message: /its data is not a JobStatusEvent: \/ must have required property 'at'/,
    breakage: eachEvent(isJobStream, (block) => {
      const { event, data } = eventOf(block);
      if (event === 'status') delete data.at;
      return event === 'status' ? withData(block, data) : block;
    }),
  },
  {
    what: 'ends a stream with another status than GET reads',
    check: 'job_events',
    message:
      /end event differs from GET \/job\/[A-Z0-9]+ right after: status "(ERROR|FINISHED)", GET "(FINISHED|ERROR|CANCELLED)"/,
    breakage: eachEvent(isJobStream, (block) => {
      const { event, data } = eventOf(block);
      if (event !== 'end') return block;
      for (const job of Object.values<any>(data.job)) job.status = job.status === 'FINISHED' ? 'ERROR' : 'FINISHED';
      return withData(block, data);
    }),
  },
  {
    what: "sends a job's end twice",
    check: 'job_events',
    message: /has 2 end events/,
    breakage: eachEvent(isJobStream, (block) => (eventOf(block).event === 'end' ? block + block : block)),
  },
  {
    what: 'resumes a stream one event late',
    check: 'job_events_resume',
    message: /missing: \d+/,
    breakage: resumeShifted(1),
  },
  {
    what: 'resumes a stream one event early',
    check: 'job_events_resume',
    message: /sent twice: \d+/,
    breakage: resumeShifted(-1),
  },
  {
    what: 'leaves RUNNING out of GET /events',
    check: 'user_events',
    message: /told job [A-Z0-9]+ went PENDING → (FINISHED|ERROR|CANCELLED); expected PENDING → RUNNING →/,
    breakage: eachEvent(isUserStream, (block) => (eventOf(block).data?.status === 'RUNNING' ? '' : block)),
  },
  {
    what: 'signs webhooks with another key',
    check: 'webhook_delivery',
    message:
      /its signature does not verify with the webhook's secret \(standardwebhooks: No matching signature found\)/,
    breakage: webhookRelay((headers) => {
      headers['webhook-signature'] = `v1,${createHmac('sha256', randomBytes(32)).update('other').digest('base64')}`;
    }),
    // A user of its own: a user has one webhook, and the runs beside this one (the proxy alone's) set alice's.
    options: { ...webhookListen, username: 'carol', password: users.carol },
  },
  {
    what: 'gives a webhook retry another webhook-id',
    check: 'webhook_retry',
    message: /has webhook-id "msg_\w+", the first attempt had "msg_\w+"/,
    breakage: webhookRelay((headers, attempt) => {
      if (attempt > 1) headers['webhook-id'] = `${headers['webhook-id']}x`;
    }),
    options: { ...webhookListen, username: 'demo', password: users.demo },
  },
);

const terminal = new Set(['FINISHED', 'ERROR', 'CANCELLED']);

/**
 * Every answer about a job (GET /job/{job_id} and its output) after the first that showed it ended, changed by `edit`:
 * the suite's poll sees the end as it is, and any later read sees it otherwise.
 */
function afterTheEnd(edit: (answer: Answer) => Answer): Breakage {
  const ended = new Set<string>();
  return {
    response(r, a) {
      const id = /^\/job\/([A-Z0-9]{12})(\/output)?$/.exec(pathOf(r))?.[1];
      if (r.method !== 'GET' || !id || a.status !== 200) return a;
      if (ended.has(id)) return edit(a);
      const body = JSON.parse(a.body.toString('utf8'));
      if (terminal.has(body?.job?.[id]?.status ?? body?.status)) ended.add(id);
      return a;
    },
  };
}

/**
 * A deployment that deletes (DELETE answers 204 and the resource is gone behind), but whose later reads of the
 * resource answer the last 200 it gave before the deletion (a cache or a replica that never heard of it).
 */
function deletedComesBack(kind: 'job' | 'data_file'): Breakage {
  const own = new RegExp(`^/${kind}/([^/]+)$`);
  const last = new Map<string, Answer>();
  const deleted = new Set<string>();
  return {
    request(r) {
      const id = own.exec(pathOf(r))?.[1];
      return r.method === 'GET' && id && deleted.has(id) && last.has(id) ? last.get(id)! : r;
    },
    response(r, a) {
      const id = own.exec(pathOf(r))?.[1];
      if (id && r.method === 'GET' && a.status === 200) last.set(id, a);
      if (id && r.method === 'DELETE' && a.status === 204) deleted.add(id);
      return a;
    },
  };
}

// Terminal means terminal (issue 32): an ended job read otherwise later, a deleted job or data file back.
brokenBehaviours.push(
  {
    what: 'reads a finished job RUNNING again',
    check: 'terminal_states',
    message: /job [A-Z0-9]{12} changed after it ended (FINISHED|ERROR): status was "(FINISHED|ERROR)", now "RUNNING"/,
    breakage: afterTheEnd((a) => eachJob(a, (job) => (job.status = 'RUNNING'))),
  },
  {
    what: "changes a finished job's output",
    check: 'terminal_states',
    message:
      /job [A-Z0-9]{12} changed after it ended FINISHED: executions\.[a-z0-9-]+\.data\.(cut_value|energy) was -?[\d.]+, now -?[\d.]+/,
    breakage: afterTheEnd((a) =>
      eachQuboAnswer(
        eachCut(a, (d) => (d.cut_value += 1)),
        (d) => (d.energy += 1),
      ),
    ),
  },
  {
    what: 'brings a deleted job back',
    check: 'terminal_states',
    message:
      /job [A-Z0-9]{12} is back after its deletion \(DELETE \/job\/[A-Z0-9]{12} \(terminal_states\) answered 204\): GET \/job\/[A-Z0-9]{12} \(terminal_states\) answered 200/,
    breakage: deletedComesBack('job'),
  },
  {
    what: 'brings a deleted data file back',
    check: 'terminal_states',
    message:
      /data file [0-9a-f]{40} is back after its deletion \(DELETE \/data_file\/[0-9a-f]{40} \(terminal_states\) answered 204\): GET \/data_file\/[0-9a-f]{40} \(terminal_states\) answered 200/,
    breakage: deletedComesBack('data_file'),
  },
);

function firstReadMissing(): Breakage {
  const seen = new Set<string>();
  return {
    request: (r) => {
      const id = /^\/job\/([A-Z0-9]{12})$/.exec(pathOf(r))?.[1];
      if (r.method !== 'GET' || !id || seen.has(id)) return r;
      seen.add(id);
      return problem(404, 'job_not_found');
    },
  };
}

/** The breakages of `whats` at once: each request goes through their request hooks in turn (the first to answer wins), each answer through their response hooks, each stream through their events hooks. */
export function combined(...whats: string[]): Breakage {
  const parts = whats.map((what) => {
    const found = brokenBehaviours.find((b) => b.what === what);
    if (!found) throw new Error(`no broken behaviour "${what}"`);
    return found.breakage;
  });
  return {
    async request(request, tools) {
      let current: Exchanged = request;
      for (const part of parts) {
        const changed = part.request ? await part.request(current, tools) : current;
        if ('status' in changed) return changed;
        current = changed;
      }
      return current;
    },
    async response(request, answer, tools) {
      let current = answer;
      for (const part of parts) if (part.response) current = await part.response(request, current, tools);
      return current;
    },
    events(request, events) {
      return parts.reduce((current, part) => (part.events ? part.events(request, current) : current), events);
    },
  };
}
