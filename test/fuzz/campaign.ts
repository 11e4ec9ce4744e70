// One fuzz run against one target: the cases (sampled once from the seed), sent eight at a time, each
// response judged; accepted jobs cancelled at once (unless tiny and exact) so the workers stay free; the
// process watched for an exit (a crash is a failure with the requests in flight and the process's last
// words, and the target is started again so that one run finds every kind of failure); GET /healthz asked
// at the end of each phase. An upload that must be refused (fileMustBeInvalid) is read back until validated:
// it must end INVALID.
//
// Rate limits. The reference server runs with its default limits. Two of them would starve the run: 60
// submits (starting jobs, uploading) a minute per user, and 30 failed logins a minute per client address.
// Logins are therefore sent from 16 loopback addresses (127.0.0.2–17), as many clients would; and the run
// has two phases: the first, on the default limits, lasts until each user has sent 70 submits (so the
// quota is reached and its 429s are judged too); the rest goes to a second server whose submit limit is
// raised, every other limit still the default.
import fc from 'fast-check';
import type { Contract } from '../../conformance/src/contract/contract.ts';
import { caseArbitrary, type FuzzCase, generationContext, type Placeholder } from './cases.ts';
import type { Fixtures } from './fixtures.ts';
import type { Target } from './processes.ts';
import type { Failure } from './report.ts';
import { authorization } from './tokens.ts';
import { judge } from './verdict.ts';
import { send, type WireRequest, type WireResponse, type WireResult } from './wire.ts';

export interface Session {
  target: Target;
  fixtures: Fixtures;
}

export interface Phase {
  name: string;
  /** Settings for the target's process in this phase. */
  env: Record<string, string>;
  from: number;
  to: number;
}

export interface CampaignOptions {
  contract: Contract;
  /** Starts the target (again, after a crash) with `users` users, and sets up what the cases refer to. */
  start: (users: number, env: Record<string, string>) => Promise<Session>;
  /** The cases, from `sampleCases`. */
  cases: FuzzCase[];
  /** Whether the target keeps what it is sent (jobs run, rate limits count): not the sandbox. */
  stateful: boolean;
  /** Requests in flight at once. */
  concurrency?: number;
  /** Starts after a crash before the run gives up. */
  maxRestarts?: number;
}

export interface CampaignResult {
  cases: number;
  users: number;
  phases: Phase[];
  /** Seconds to start the targets and set up their users (restarts after a crash not included). */
  startSeconds: number;
  /** Requests sent: the cases and the cancels of the jobs they started. */
  requests: number;
  failures: Failure[];
  statuses: Record<string, number>;
  byOperation: Record<string, number>;
  /** 429s by problem code and rate-limit policy. */
  rateLimited: Record<string, number>;
  seconds: number;
  /** How often the process exited, and the seconds spent starting it again. */
  crashes: number;
  restartSeconds: number;
  /** Answers slower than a second. */
  slowest: { ms: number; what: string }[];
}

const users = 8;
/** How long an upload that must end INVALID may take to be validated. */
const validationSeconds = 20;
/** Submits per user in the phase on the default limits: past the quota of 60 a minute, so that it is reached. */
const submitsPerUser = 70;
const loginAddresses = 16;

/** The rate-limit policy a request counts against. */
function policy(fuzzCase: { method: string; target: string }): 'login' | 'submit' | 'default' {
  if (fuzzCase.method !== 'POST') return 'default';
  if (fuzzCase.target.startsWith('/login')) return 'login';
  return /^\/(data_file|problem\/[^/?]+)(\?|$)/.test(fuzzCase.target) ? 'submit' : 'default';
}

function fill(text: string, values: Record<Placeholder, string>): string {
  return text.replace(/\{\{(\w+)\}\}/g, (whole, name: string) => values[name as Placeholder] ?? whole);
}

function fillBody(body: Buffer, values: Record<Placeholder, string>): Buffer {
  return body.includes('{{') ? Buffer.from(fill(body.toString('latin1'), values), 'latin1') : body;
}

/** The process's output without the sandbox's line per request: its last words. */
function lastWords(output: string): string {
  return output
    .split('\n')
    .filter((l) => !/^\d{4}-\d\d-\d\dT\S+ \S+ .* → \d{3}$/.test(l))
    .slice(-40)
    .join('\n');
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** The run's cases: the same for every target of a seed. */
export function sampleCases(contract: Contract, seed: number, runs: number): FuzzCase[] {
  return fc.sample(caseArbitrary(generationContext(contract)), { seed, numRuns: runs });
}

/** The phases of a run (see the top of this file). */
function phasesOf(cases: FuzzCase[], stateful: boolean): Phase[] {
  let submits = 0;
  const split = stateful
    ? cases.findIndex((c) => c.auth === 'user' && policy(c) === 'submit' && ++submits > users * submitsPerUser)
    : -1;
  if (split < 0) return [{ name: 'default limits', env: {}, from: 0, to: cases.length }];
  return [
    { name: 'default limits', env: {}, from: 0, to: split },
    { name: 'submit limit raised', env: { JES_RATE_LIMITS: 'submit=1000000/60' }, from: split, to: cases.length },
  ];
}

export async function runCampaign(options: CampaignOptions): Promise<CampaignResult> {
  const { contract, cases } = options;
  const userCount = options.stateful ? users : 1;
  const phases = phasesOf(cases, options.stateful);
  const result: CampaignResult = {
    cases: cases.length,
    users: userCount,
    phases,
    startSeconds: 0,
    requests: 0,
    failures: [],
    statuses: {},
    byOperation: {},
    rateLimited: {},
    seconds: 0,
    crashes: 0,
    restartSeconds: 0,
    slowest: [],
  };
  // Each case's user: round robin per rate-limit policy (a login names its user in the body, whatever its token).
  const turn = { login: 0, submit: 0, default: 0 };
  const userOf = cases.map((c) => (c.auth === 'user' || policy(c) === 'login' ? turn[policy(c)]++ : 0) % userCount);
  const addressOf = cases.map((c, i) =>
    options.stateful && policy(c) === 'login'
      ? `127.0.0.${2 + ((userOf[i]! + Math.floor(i / userCount)) % loginAddresses)}`
      : undefined,
  );
  const inFlight = new Map<number, { family: string; request: WireRequest }>();
  const crashedTargets = new Set<Target>();
  let session!: Session;
  let phase: Phase;
  let restarting: Promise<void> | undefined;
  let gaveUp = false;
  const started = performance.now();

  /** After an exit: one failure for the crash (what was in flight, what the process said), and a new process. */
  async function crashed(target: Target, index: number, gone: string): Promise<void> {
    if (crashedTargets.has(target)) return restarting;
    crashedTargets.add(target);
    restarting = (async () => {
      if (target.stoppedFromOutside()) {
        // Another process on the machine stopped it: the target did nothing wrong. Start it again and go on.
        console.warn(`fuzz: the target was stopped from outside (${gone}) at case ${index}; starting it again`);
        await target.stop();
        session = await options.start(userCount, phase.env);
        return;
      }
      result.crashes++;
      const suspects = [...inFlight.entries()].map(([i, f]) => ({ index: i, ...f }));
      result.failures.push({
        index,
        family: 'process exit',
        where: 'the process',
        base: target.url,
        request: suspects[0]?.request ?? { method: '-', target: '-', headers: [] },
        problems: [`the process exited (${gone}) with ${suspects.length} requests in flight`],
        crash: { suspects, output: lastWords(target.output()) },
      });
      attachLogs(result.failures, target.output());
      await target.stop();
      if (result.crashes > (options.maxRestarts ?? 20)) {
        gaveUp = true;
        return;
      }
      const restarted = performance.now();
      session = await options.start(userCount, phase.env);
      result.restartSeconds += (performance.now() - restarted) / 1000;
    })().finally(() => (restarting = undefined));
    return restarting;
  }

  async function exchange(
    index: number,
    family: string,
    request: WireRequest,
    sendOptions: { endAfterWrite?: boolean; localAddress?: string } = {},
  ): Promise<WireResult> {
    const target = session.target;
    inFlight.set(index, { family, request });
    const reply = await send(target.url, request, { timeoutMs: 20_000, ...sendOptions });
    result.requests++;
    if ('error' in reply) {
      // A reset may come a moment before the exit is reported.
      for (let i = 0; i < 10 && !target.exited() && /ECONNRESET|ECONNREFUSED|closed/.test(reply.error); i++)
        await sleep(50);
      const gone = target.exited();
      if (gone) await crashed(target, index, gone);
      else {
        const where =
          contract.find(request.method, request.target.split('?')[0]!)?.label ??
          'a path or method the contract does not have';
        result.failures.push({
          index,
          family,
          where,
          base: target.url,
          request,
          error: reply.error,
          problems: [`no response: ${reply.error}`],
        });
      }
      inFlight.delete(index);
      return reply;
    }
    inFlight.delete(index);
    const { response } = reply;
    if (response.ms > 1000)
      result.slowest.push({
        ms: response.ms,
        what: `${request.method} ${request.target.slice(0, 80)} (${family}) → ${response.status}`,
      });
    const verdict = judge(contract, request.method, request.target, response);
    const operationId = verdict.operation?.operation.operationId ?? '(none)';
    result.statuses[response.status] = (result.statuses[response.status] ?? 0) + 1;
    result.byOperation[operationId] = (result.byOperation[operationId] ?? 0) + 1;
    if (response.status === 429) {
      const kind = `${/"code":"(\w+)"/.exec(response.body.toString('utf8'))?.[1] ?? '?'} (${policy(request)})`;
      result.rateLimited[kind] = (result.rateLimited[kind] ?? 0) + 1;
    }
    const where = verdict.operation?.label ?? 'a path or method the contract does not have';
    if (verdict.problems.length)
      result.failures.push({ index, family, where, base: target.url, request, response, problems: verdict.problems });
    return reply;
  }

  async function run(index: number): Promise<void> {
    await restarting;
    const fuzzCase = cases[index]!;
    const { fixtures } = session;
    const user = fixtures.users[userOf[index]!]!;
    const values = fixtures.placeholders(userOf[index]!);
    const auth = authorization(fuzzCase.auth, user.token, fixtures.jwtSecret, fuzzCase.authVariant);
    const request: WireRequest = {
      method: fuzzCase.method,
      target: fill(fuzzCase.target, values),
      headers: [...fuzzCase.headers, ...(auth !== undefined ? [['Authorization', auth] as [string, string]] : [])],
      ...(fuzzCase.body ? { body: fillBody(fuzzCase.body, values) } : {}),
      ...(fuzzCase.contentLength !== undefined ? { contentLength: fuzzCase.contentLength } : {}),
      ...(fuzzCase.version ? { version: fuzzCase.version } : {}),
      ...(fuzzCase.omitHost ? { omitHost: true } : {}),
    };
    const reply = await exchange(index, fuzzCase.family, request, {
      ...(fuzzCase.endAfterWrite ? { endAfterWrite: true } : {}),
      ...(addressOf[index] ? { localAddress: addressOf[index] } : {}),
    });
    if (!('response' in reply) || !options.stateful || fuzzCase.auth !== 'user') return;
    const { status, body } = reply.response;
    const operationId = contract.find(request.method, request.target.split('?')[0]!)?.operation.operationId;
    let json: any;
    try {
      json = JSON.parse(body.toString('utf8'));
    } catch {
      return;
    }
    if (operationId === 'startJob' && status === 200 && typeof json?.job === 'string') {
      user.jobs.push(json.job);
      const headers: [string, string][] = [['Authorization', `Bearer ${user.token}`]];
      if (!fuzzCase.letRun)
        await exchange(index, `${fuzzCase.family} (its cancel)`, {
          method: 'POST',
          target: `/job/${json.job}/cancel`,
          headers,
        });
      else {
        // A job left to run is read back once it has (most likely) ended: its answers must render.
        await exchange(index, `${fuzzCase.family} (read back)`, {
          method: 'GET',
          target: `/job/${json.job}`,
          headers: [...headers, ['Prefer', 'wait=1']],
        });
        await exchange(index, `${fuzzCase.family} (its output)`, {
          method: 'GET',
          target: `/job/${json.job}/output`,
          headers,
        });
      }
    }
    if (
      operationId === 'uploadDataFile' &&
      (status === 200 || status === 201) &&
      typeof json?.data_file_identifier === 'string'
    ) {
      user.files.push(json.data_file_identifier);
      if (fuzzCase.fileMustBeInvalid)
        await expectInvalid(index, fuzzCase.family, json.data_file_identifier, user.token);
    }
  }

  /** Reads a data file back until validated: one that declares more than it may hold must end INVALID. */
  async function expectInvalid(index: number, family: string, id: string, token: string): Promise<void> {
    const request: WireRequest = {
      method: 'GET',
      target: `/data_file/${id}`,
      headers: [['Authorization', `Bearer ${token}`]],
    };
    const started = performance.now();
    let status = 'PROCESSING';
    let response: WireResponse | undefined;
    while (status === 'PROCESSING' && performance.now() - started < validationSeconds * 1000) {
      const reply = await exchange(index, `${family} (read back)`, request);
      if (!('response' in reply) || reply.response.status !== 200) return; // judged as any answer is
      response = reply.response;
      status = JSON.parse(response.body.toString('utf8')).data_file?.[id]?.status;
      if (status === 'PROCESSING') await sleep(100);
    }
    if (status === 'INVALID') return;
    result.failures.push({
      index,
      family,
      where: 'GET /data_file/{data_file_identifier}',
      base: session.target.url,
      request,
      ...(response ? { response } : {}),
      problems: [
        status === 'PROCESSING'
          ? `a data file declaring more than it may hold was still PROCESSING after ${validationSeconds} s`
          : `a data file declaring more than it may hold is ${status}, not INVALID`,
      ],
    });
  }

  try {
    for (phase of phases) {
      const starting = performance.now();
      session = await options.start(userCount, phase.env);
      result.startSeconds += (performance.now() - starting) / 1000;
      let next = phase.from;
      await Promise.all(
        Array.from({ length: options.concurrency ?? 8 }, async () => {
          while (next < phase.to && !gaveUp) await run(next++);
        }),
      );
      if (gaveUp) break;
      const health = await exchange(-1, 'health at the end', { method: 'GET', target: '/healthz', headers: [] });
      if ('response' in health && health.response.status !== 200) {
        result.failures.push({
          index: -1,
          family: 'health at the end',
          where: 'GET /healthz',
          base: session.target.url,
          request: { method: 'GET', target: '/healthz', headers: [] },
          response: health.response,
          problems: [`GET /healthz answered ${health.response.status} at the end, not 200`],
        });
      }
      const gone = session.target.exited();
      if (gone) await crashed(session.target, -1, gone);
      attachLogs(result.failures, session.target.output());
      await session.target.stop();
    }
  } finally {
    await session?.target.stop();
  }
  result.seconds = (performance.now() - started) / 1000 - result.startSeconds - result.restartSeconds;
  return result;
}

/** The target's log lines for each failure (found by its request id). */
function attachLogs(failures: Failure[], output: string): void {
  const byId = new Map<string, string[]>();
  for (const line of output.split('\n')) {
    const id = /"reqId":"([^"]+)"/.exec(line)?.[1];
    if (id) byId.set(id, [...(byId.get(id) ?? []), line]);
  }
  for (const failure of failures) {
    const id = failure.response?.headers['x-request-id'];
    if (id && !failure.log && byId.has(id)) failure.log = byId.get(id)!.slice(0, 5);
  }
}
