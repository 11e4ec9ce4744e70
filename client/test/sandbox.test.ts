// The client and the command line against the sandbox (jes-sandbox, spawned): stateless (Prism's engine serving
// the contract's examples), which checks each request against the contract, so these also show the client sends
// valid requests; and stateful, where jobs run and answer the input sent.
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createJesClient, type JesClient } from '../src/index.ts';
import { configHome, jes } from './support/cli.ts';
import { exampleQubo, fourVariables, sixNodes, sixNodesEdgeList } from './support/graphs.ts';
import { type Started, startSandbox } from './support/processes.ts';
import { runBash, walkthrough } from './support/readme.ts';

let sandbox: Started;
let client: JesClient;

beforeAll(async () => {
  sandbox = await startSandbox(['--stateless']);
  client = createJesClient({ baseUrl: sandbox.url, username: 'anyone', password: 'any-password' });
});
afterAll(() => sandbox?.stop());

describe('the library against the sandbox', () => {
  it('logs in, starts the example job, waits for it and reads the cut 53', async () => {
    expect((await client.listProblems()).data?.map((u) => u.id)).toEqual(['maxcut', 'qubo']);
    const started = await client.startJob('maxcut', sixNodes, {
      solvers: ['exact', 'local-search'],
      timeLimitSeconds: 5,
    });
    expect(started.data).toEqual({ id: 'K7Q2M9X4TB1R', detail: 'Job created' });
    const ended = await client.waitForJob(started.data!.id);
    expect(ended.data).toMatchObject({ id: 'K7Q2M9X4TB1R', status: 'FINISHED' });
    expect((await client.getOutput('K7Q2M9X4TB1R')).data?.outputs.exact?.cut_value).toBe(53);
  });

  it('uploads a data file, starts a job from it, lists, cancels', async () => {
    const upload = await client.uploadDataFile({ problemId: 'maxcut', file: sixNodesEdgeList, name: 'six-nodes.txt' });
    expect(upload.data?.id).toBe('d6e02699b78918a5032ec7a872e2de7800c3a15a');
    const started = await client.startJob(
      'maxcut',
      { data_file_identifier: upload.data!.id },
      { solvers: [{ name: 'local-search', params: { seed: 42 } }] },
    );
    expect(started.data?.id).toBe('K7Q2M9X4TB1R');
    const page = (await client.listJobs().next()).value;
    expect(page?.data).toMatchObject({ items: [{ id: 'P3WZ8N5C2V0H' }, { id: 'K7Q2M9X4TB1R' }], hasMore: false });
    expect((await client.cancelJob('P3WZ8N5C2V0H')).data?.cancel_requested_at).toEqual(expect.any(String));
  });

  it('starts a QUBO job inline and from an uploaded .qubo file (the sandbox answers with its example job)', async () => {
    expect((await client.getProblem('qubo')).data?.data_file_formats).toEqual(['json', 'qubo']);
    expect((await client.startJob('qubo', fourVariables, { solvers: ['exact'] })).data?.id).toBe('K7Q2M9X4TB1R');
    const file = readFileSync(exampleQubo('four-variables.qubo'), 'utf8');
    const upload = await client.uploadDataFile({ problemId: 'qubo', file, name: 'four-variables.qubo' });
    expect(upload.error).toBeUndefined();
    const started = await client.startJob('qubo', { data_file_identifier: upload.data!.id });
    expect(started.data?.id).toBe('K7Q2M9X4TB1R');
  });

  it("answers a request the contract refuses with the sandbox's problem", async () => {
    const result = await client.getJob('not-an-id');
    expect(result.error).toMatchObject({ status: 400, code: 'invalid_request' });
    expect(result.response.headers.get('sl-violations')).toContain('job_id');
  });
});

describe('the command line against the sandbox', () => {
  it('jes --sandbox logs in and submits with --wait (SANDBOX_PORT names the port)', async () => {
    const env = { XDG_CONFIG_HOME: configHome(), SANDBOX_PORT: new URL(sandbox.url).port };
    const graph = join(env.XDG_CONFIG_HOME, 'triangle.txt');
    writeFileSync(graph, '3 3\n1 2 1\n2 3 1\n1 3 1\n');
    expect((await jes(['--sandbox', 'login', '--username', 'anyone', '--password-stdin'], env, 'x')).code).toBe(0);
    const run = await jes(['--sandbox', 'submit', 'maxcut', graph, '--wait'], env);
    expect(run.stderr).toMatch(
      /^Started job K7Q2M9X4TB1R \(maxcut, triangle.txt uploaded as data file d6e02699b78918a5032ec7a872e2de7800c3a15a\)\./,
    );
    expect(run.stdout).toMatch(/^exact +SUCCESS +0\.002 s +53 +yes/m);
    expect(run.code).toBe(0);
  });

  it('jes submit qubo sends a JSON input inline and uploads a .qubo file as a data file', async () => {
    const env = { XDG_CONFIG_HOME: configHome(), JES_BASE_URL: sandbox.url, JES_TOKEN: 'any.well-formed.token' };
    const inline = await jes(['submit', 'qubo', exampleQubo('four-variables.json')], env);
    expect(inline).toMatchObject({ code: 0, stderr: '' });
    expect(inline.stdout).toMatch(/^Started job K7Q2M9X4TB1R \(qubo, input inline\)\./);
    const uploaded = await jes(['submit', 'qubo', exampleQubo('four-variables.qubo')], env);
    expect(uploaded).toMatchObject({ code: 0, stderr: '' });
    expect(uploaded.stdout).toMatch(
      /^Started job K7Q2M9X4TB1R \(qubo, four-variables\.qubo uploaded as data file [0-9a-f]{40}\)\./,
    );
  });

  it('jes jobs shows the best cut of a finished job (best_value, kept once ended) and takes --status in any case', async () => {
    const env = { XDG_CONFIG_HOME: configHome(), JES_BASE_URL: sandbox.url, JES_TOKEN: 'any.well-formed.token' };
    // Prism checks the query against the contract's enum: a lowercase status reaching it would be a 400.
    const run = await jes(['jobs', '--status', 'finished'], env);
    expect(run).toMatchObject({ code: 0, stderr: '' });
    expect(run.stdout).toMatch(/^K7Q2M9X4TB1R +FINISHED +maxcut +inline +\S+ +53$/m);
  });

  const walk = walkthrough();
  const skip = walk.skip ? ` (skipped: ${walk.skip})` : '';
  it.skipIf(skip)(`the README's walkthrough runs as written${skip}`, async () => {
    // The sandbox takes any credentials, as client/README.md says.
    const run = await runBash(walk.script!, {
      JES_BASE_URL: sandbox.url,
      XDG_CONFIG_HOME: configHome(),
      JES_USERNAME: 'demo',
      JES_PASSWORD: 'any',
    });
    expect(run.code).toBe(0);
    expect(run.stdout).toMatch(/^Status +FINISHED$/m);
    expect(run.stdout).toMatch(/^exact +53 +yes +53 /m);
  });
});

describe('the library against the stateful sandbox (the default)', () => {
  let stateful: Started;
  let alice: JesClient;
  beforeAll(async () => {
    stateful = await startSandbox(['--seed', '7']);
    alice = createJesClient({ baseUrl: stateful.url, username: 'alice', password: 'any-password' });
  });
  afterAll(() => stateful?.stop());

  it('runs the example job to FINISHED and answers its maximum cut, 53, proven', async () => {
    const started = await alice.startJob('maxcut', sixNodes, { solvers: ['exact', 'local-search'] });
    expect(started.data?.id).toMatch(/^[A-Z0-9]{12}$/);
    const ended = await alice.waitForJob(started.data!.id);
    expect(ended.data?.status).toBe('FINISHED');
    const outputs = (await alice.getOutput(started.data!.id)).data?.outputs;
    expect(outputs?.exact).toMatchObject({ cut_value: 53, optimal: true });
    expect(outputs?.['local-search']?.cut_value).toBe(53);
  });

  it('starts a job from an uploaded file, lists it, cancels it, and keeps it from another user', async () => {
    const upload = await alice.uploadDataFile({ problemId: 'maxcut', file: sixNodesEdgeList, name: 'six-nodes.txt' });
    expect(upload.data?.id).toBe('d6e02699b78918a5032ec7a872e2de7800c3a15a');
    const started = await alice.startJob(
      'maxcut',
      { data_file_identifier: upload.data!.id },
      { solvers: ['annealing'], timeLimitSeconds: 600 },
    );
    const id = started.data!.id;
    const page = (await alice.listJobs().next()).value;
    expect(page?.data?.items[0]?.id).toBe(id);
    expect((await alice.cancelJob(id)).data?.cancel_requested_at).toEqual(expect.any(String));
    expect((await alice.waitForJob(id)).data?.status).toBe('CANCELLED');
    const bob = createJesClient({ baseUrl: stateful.url, username: 'bob', password: 'other' });
    expect((await bob.getJob(id)).error).toMatchObject({ status: 404, code: 'job_not_found' });
  });
});
