// --operation: a run narrowed to one operation runs the checks that exercise it (with --only, those both select; a
// team's check of other operations is left out) and sends requests to that operation alone, but for the set-up of
// every run: GET /healthz (the versions), POST /login (the session) and GET /problem (the use cases the checks read).
// The heading says so; with --only, the checks both select; an unknown operationId is refused with the near one.
import { afterAll, beforeAll, expect, it } from 'vitest';
import { runConformance } from '../src/index.ts';
import { conformance } from './support/command.ts';
import { type Started, startSandboxTarget, users } from './support/targets.ts';

const teamChecks = new URL('support/team-checks.mjs', import.meta.url).pathname;
const setUp = ['getHealth', 'login', 'listProblems'];

let sandbox: Started;
beforeAll(async () => {
  sandbox = await startSandboxTarget({ seed: 1 });
});
afterAll(() => sandbox?.stop());

it('--operation getProblem runs the checks of getProblem and sends requests to it alone, but for the set-up', async () => {
  const started = performance.now();
  const run = await conformance([
    '--base-url',
    sandbox.url,
    '--username',
    'alice',
    '--password',
    users.alice,
    '--operation',
    'getProblem',
    '--checks',
    teamChecks,
  ]);
  console.log(`a run of --operation getProblem: ${((performance.now() - started) / 1000).toFixed(1)} s`);
  expect(run.code, run.stdout + run.stderr).toBe(0);
  expect(run.stdout.split('\n')[0]).toBe(
    `jes-conformance: ${sandbox.url} (profile full; fast-check seed 20261122, 8 cases per target; only the operation getProblem)`,
  );
  const ran = [...run.stdout.matchAll(/^(?:passed|failed|skipped|error) +(\w+)/gm)].map(([, name]) => name);
  // The team's check (startMaxCutJob, getJob) is not among them; the response checks judge getProblem's answers, and response_time times them.
  expect(ran).toEqual([
    'missing_auth',
    'ignored_auth',
    'unsupported_method',
    'negative_data_rejection',
    'positive_data_acceptance',
    'not_a_server_error',
    'status_code_conformance',
    'content_type_conformance',
    'response_headers_conformance',
    'response_schema_conformance',
    'response_time',
  ]);
  const called = [...run.stdout.matchAll(/^ {2}(\w+) +[A-Z]+ \S+ +(\d+) requests? /gm)]
    .filter(([, , requests]) => Number(requests) > 0)
    .map(([, operationId, requests]) => [operationId!, Number(requests)] as const);
  expect(called.map(([id]) => id).sort()).toEqual([...setUp, 'getProblem'].sort());
  const requests = Object.fromEntries(called);
  // Every check's requests of getProblem (the auth checks', the refusals', the generated ids', the tour's), and one
  // GET /healthz, one login, one GET /problem.
  expect(requests.getProblem).toBeGreaterThan(10);
  expect([requests.getHealth, requests.login, requests.listProblems]).toEqual([1, 1, 1]);
  // unsupported_method's, on /problem/{problem_id} alone: PUT, DELETE, PATCH and PROPFIND, with a token and without.
  expect(run.stdout).toMatch(/^ {2}8 requests to methods and paths the contract lacks, answered 405$/m);
});

// Against nothing (port 9 refuses): the report's checks, all errors, are those the run took.
const nowhere = { baseUrl: 'http://127.0.0.1:9', username: 'u', password: 'p' };

it('with --only, runs the checks both select, and refuses an unknown operation with the near one', async () => {
  const both = await runConformance({
    ...nowhere,
    only: ['lifecycle', 'negative_data_rejection'],
    operations: ['getProblem'],
  });
  expect(both.results.map((r) => r.name)).toEqual(['negative_data_rejection']);
  expect(both.operations).toEqual(['getProblem']);
  const none = await runConformance({ ...nowhere, only: ['lifecycle'], operations: ['getProblem'] }).catch(
    (e: Error) => e,
  );
  expect((none as Error).message).toBe('no check of lifecycle exercises getProblem');
  const unknown = await runConformance({ ...nowhere, operations: ['getjob'] }).catch((e: Error) => e);
  expect((unknown as Error).message).toMatch(
    /^unknown operation getjob \(did you mean getJob\?\); the contract's operations are login, listProblems, .*, getHealth$/,
  );
});
