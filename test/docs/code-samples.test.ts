// The request samples of the reference (x-codeSamples, scripts/code-samples.ts) do what they show: every operation
// has a curl and an @jes/client sample in docs/index.html; each curl command, run by bash with the server's URL and
// a token put in, answers a documented success status from the reference server and from the sandbox; each
// TypeScript sample type-checks against the client's types (tsc, strict) and runs to its end against the server.
// Ids the server does not have (the examples' job K7Q2M9X4TB1R) are swapped for ones made for the sample. A job's
// stream ends with the job (its samples follow a job that ends); the stream of all a user's jobs never does: its
// samples are stopped once they have printed their first event, jobs being started meanwhile so that one comes.
import { spawn, spawnSync } from 'node:child_process';
import { createRequire } from 'node:module';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { parse } from 'yaml';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RequestSamples, requestSamples } from '../../scripts/code-samples.ts';
import { contractPath, root } from '../../scripts/generated.ts';
import { type Sandbox, startSandbox } from '../../sandbox/src/server.ts';
import type { Running } from '../../server/src/start/main.ts';
import { startTestServer } from '../../server/test/support/server.ts';

const doc = parse(readFileSync(contractPath, 'utf8'));
const samples = requestSamples(doc);
const sampleBase: string = doc.servers[0].url;
const credentials = { username: 'demo', password: 'correct-horse-battery-staple' };
const exampleJob: string = doc.components.parameters.JobIdPath.example;
const exampleDataFile: string = doc.components.parameters.DataFileIdPath.example;
const uploads = Object.values<any>(doc.paths['/data_file'].post.requestBody.content['multipart/form-data'].examples).map((e) => e.value);
const upload = uploads[0];
const sixNodes = doc.components.examples.MaxCutInput.value;

const label = (s: RequestSamples) => `${s.operationId}${s.example ? ` (${s.example})` : ''}`;
const successes = (s: RequestSamples) => Object.keys(doc.paths[s.path][s.method].responses).filter((status) => status.startsWith('2')).map(Number);

interface Run {
  code: number;
  stdout: string;
  stderr: string;
}

interface Endless {
  /** Stop the command (its whole process group) once its output matches: it has printed its first event. */
  stopAt: RegExp;
  /** Done again and again while it runs, until then: starts a job, so that an event comes. */
  poke?: () => Promise<unknown>;
}

/** Runs the command to its end, or (`endless`) until its output shows an event: then `stopped`, with code 0. */
function run(command: string, args: string[], options: { cwd: string; env?: Record<string, string>; endless?: Endless }): Promise<Run & { stopped?: true }> {
  const { endless } = options;
  return new Promise((resolve) => {
    const child = spawn(command, args, { cwd: options.cwd, env: { ...process.env, ...options.env }, stdio: ['ignore', 'pipe', 'pipe'], detached: endless !== undefined });
    let stdout = '';
    let stderr = '';
    let stopped = false;
    let closed = false;
    child.stdout.on('data', (chunk: Buffer) => {
      stdout += chunk.toString();
      if (endless && !stopped && endless.stopAt.test(stdout)) {
        stopped = true;
        process.kill(-child.pid!, 'SIGTERM');
      }
    });
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.on('close', (code) => {
      closed = true;
      resolve(stopped ? { code: 0, stdout, stderr, stopped } : { code: code ?? -1, stdout, stderr });
    });
    void (async () => {
      while (endless?.poke && !stopped && !closed) {
        await endless.poke();
        await new Promise((wake) => setTimeout(wake, 300));
      }
    })();
  });
}

/** The samples of GET /events, a stream that never ends by itself. */
const isEndless = (sample: RequestSamples) => sample.operationId === 'streamEvents';

/**
 * Runs a curl sample as pasted, but for the URL and the ids; resolves to the status of its (last) request. An endless
 * stream's is stopped after its first event (which only a 200 carries), `poke` making one come.
 */
async function runCurl(sample: RequestSamples, base: string, token: string, ids: Record<string, string> = {}, poke?: () => Promise<unknown>): Promise<{ status: number; stderr: string }> {
  let script = sample.curl.source.replaceAll(sampleBase, base);
  for (const [example, real] of Object.entries(ids)) script = script.replaceAll(example, real);
  const cwd = mkdtempSync(join(tmpdir(), 'jes-curl-sample-'));
  try {
    // The sample's own curl, made to print the status after the body.
    const wrapped = `curl() { command curl -w '\\n%{http_code}' "$@"; }\n${script}`;
    const endless = isEndless(sample) ? { stopAt: /^id: \d+\nevent: \w+\ndata: \{.*\}\n\n/m, ...(poke ? { poke } : {}) } : undefined;
    const { stdout, stderr, stopped } = await run('bash', ['-euo', 'pipefail', '-c', wrapped], { cwd, env: { TOKEN: token }, ...(endless ? { endless } : {}) });
    return { status: stopped ? 200 : Number(stdout.trim().split('\n').at(-1)), stderr };
  } finally {
    rmSync(cwd, { recursive: true, force: true });
  }
}

const missingTool = ['bash', 'curl'].find((tool) => spawnSync(tool, ['--version']).error);
const skipCurl = missingTool ? ` (skipped: no ${missingTool} on PATH)` : '';

describe('the samples in docs/index.html', () => {
  const reference = readFileSync(join(root, 'docs/index.html'), 'utf8');

  it('every operation has a curl and an @jes/client sample', () => {
    const operations = Object.values<any>(doc.paths).flatMap((item) => ['get', 'put', 'post', 'delete', 'patch'].filter((m) => item[m]).map((m) => item[m].operationId));
    for (const operationId of operations) {
      const mine = samples.filter((s) => s.operationId === operationId);
      expect(mine.length, operationId).toBeGreaterThan(0);
    }
    expect(reference.match(/"x-codeSamples":\[/g)).toHaveLength(operations.length);
  });

  it.each(samples)('the page carries the samples of $operationId $example', (sample) => {
    for (const { label: name, source } of [sample.curl, sample.typescript]) {
      expect(reference, name).toContain(JSON.stringify({ lang: name === sample.curl.label ? 'Shell' : 'TypeScript', label: name, source }).replace(/</g, '\\u003c'));
    }
  });
});

describe('the samples against the reference server', () => {
  let server: Running;
  let token: string;
  const api = (path: string, init: RequestInit = {}) =>
    fetch(server.url + path, { ...init, headers: { authorization: `Bearer ${token}`, ...(init.headers as Record<string, string>) } });
  const start = async (query: string) => {
    const answer = await api(`/problem/maxcut?${query}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(sixNodes) });
    return ((await answer.json()) as { job: string }).job;
  };
  const uploadText = async (text: string, name: string, problemId = 'maxcut') => {
    const form = new FormData();
    form.set('file', new Blob([text]), name);
    form.set('problem_id', problemId);
    form.set('name', name);
    return ((await (await api('/data_file', { method: 'POST', body: form })).json()) as { data_file_identifier: string }).data_file_identifier;
  };
  /** A job that has ended (FINISHED), waited for with the long poll. */
  const endedJob = async () => {
    const id = await start('solver=exact');
    for (;;) {
      const job = ((await (await api(`/job/${id}`, { headers: { prefer: 'wait=30' } })).json()) as any).job[id];
      if (['FINISHED', 'ERROR', 'CANCELLED'].includes(job.status)) return id;
    }
  };
  /** The ids a sample needs that the server does not have yet, each made for it. */
  const idsFor = async (sample: RequestSamples): Promise<Record<string, string>> => {
    if (['getJob', 'getJobOutput', 'getJobInput', 'deleteJob'].includes(sample.operationId))
      return { [exampleJob]: await endedJob() };
    // A local search with an hour's limit is still running when the cancel comes.
    if (sample.operationId === 'cancelJob') return { [exampleJob]: await start('solver=local-search&time_limit_seconds=3600') };
    // A job that runs for a second: its stream follows it to its end.
    if (sample.operationId === 'streamJobEvents') return { [exampleJob]: await start('solver=local-search&time_limit_seconds=1') };
    // Another file than the example's, which started jobs may still use.
    if (sample.operationId === 'deleteDataFile') return { [exampleDataFile]: await uploadText('2 1\n1 2 1\n', 'two-nodes.txt') };
    // The example's file: the same bytes give the example's identifier (the SHA-1 of the bytes).
    if (sample.operationId === 'getDataFile') expect(await uploadText(upload.file, upload.name)).toBe(exampleDataFile);
    if (sample.example === 'data_file') {
      // The upload example of the use case the sample starts (its path's), uploaded; the sample's identifier is
      // swapped for the upload's should they differ (startQuboJob's example names no upload example's SHA-1).
      const problemId = /\/problem\/(\w+)/.exec(sample.curl.source)![1]!;
      const example = uploads.find((u) => u.problem_id === problemId);
      const named = /"data_file_identifier": "([0-9a-f]{40})"/.exec(sample.curl.source)![1]!;
      const uploaded = await uploadText(example.file, example.name, problemId);
      if (problemId === 'maxcut') expect(uploaded).toBe(named);
      return { [named]: uploaded };
    }
    return {};
  };

  beforeAll(async () => {
    server = await startTestServer({ JES_USERS: `${credentials.username}:${credentials.password}` });
    const login = await fetch(`${server.url}/login`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(credentials) });
    token = ((await login.json()) as { access_token: string }).access_token;
  });
  afterAll(() => server?.close());

  it.skipIf(skipCurl).concurrent.each(samples.map((s) => [label(s), s] as const))(`curl: %s answers a documented success${skipCurl}`, async (_, sample) => {
    const { status, stderr } = await runCurl(sample, server.url, token, await idsFor(sample), () => start('solver=exact'));
    expect(stderr).toBe('');
    expect(successes(sample)).toContain(status);
  });

  describe('@jes/client', () => {
    // Under node_modules/ so that '@jes/client' resolves as in a project of the user's (to the sources, by the
    // jes-source condition of the root tsconfig.json, which this one extends).
    const dir = join(root, 'node_modules', '.cache', 'jes-code-samples');
    const fileOf = (sample: RequestSamples) => `${sample.operationId}${sample.example ? `-${sample.example}` : ''}.mts`;

    beforeAll(() => {
      rmSync(dir, { recursive: true, force: true });
      mkdirSync(dir, { recursive: true });
      writeFileSync(join(dir, 'tsconfig.json'), JSON.stringify({ extends: '../../../tsconfig.json', include: ['*.mts'] }));
      for (const sample of samples) writeFileSync(join(dir, fileOf(sample)), sample.typescript.source);
    });
    afterAll(() => rmSync(dir, { recursive: true, force: true }));

    it('every sample type-checks against the client (tsc, strict), and a misspelt helper beside them does not', async () => {
      writeFileSync(join(dir, 'misspelt.mts'), samples.find((s) => s.operationId === 'getJob')!.typescript.source.replace('jes.getJob(', 'jes.getJobs('));
      const tsc = createRequire(join(root, 'package.json')).resolve('typescript/bin/tsc');
      const checked = await run(process.execPath, [tsc, '-p', '.'], { cwd: dir });
      expect(checked.stdout).toMatch(/^misspelt\.mts\(\d+,\d+\): error TS2551: Property 'getJobs' does not exist on type 'JesClient'\. Did you mean 'getJob'\?\n$/);
    });

    it.concurrent.each(samples.map((s) => [label(s), s] as const))('%s runs to its end', async (_, sample) => {
      const ids = await idsFor(sample);
      // Run outside node_modules (Node strips types only there), importing the client's entry by its path, and what it
      // imports of @jes/contract from its sources (jes-source), as a clone runs them: the package's dist is not built.
      const client = pathToFileURL(join(root, 'client/src/index.ts')).href;
      let source = sample.typescript.source.replaceAll(sampleBase, server.url).replace("from '@jes/client'", `from '${client}'`);
      for (const [example, real] of Object.entries(ids)) source = source.replaceAll(example, real);
      const cwd = mkdtempSync(join(tmpdir(), 'jes-ts-sample-'));
      try {
        writeFileSync(join(cwd, 'sample.mts'), source);
        // console.log of an event's data: `{ job_id: '…', status: '…', at: '…' }`.
        const endless = { stopAt: /job_id: '\w+'[\s\S]*\}\n/, poke: () => start('solver=exact') };
        const ran = await run(process.execPath, ['--conditions=jes-source', 'sample.mts'], { cwd, ...(isEndless(sample) ? { endless } : {}) });
        expect(ran.stderr).toBe('');
        expect(ran.code).toBe(0);
      } finally {
        rmSync(cwd, { recursive: true, force: true });
      }
    });
  });
});

describe('the curl samples against the sandbox', () => {
  let sandbox: Sandbox;
  beforeAll(async () => {
    // Stateless: the samples carry a token of their own making and ids of the contract's examples.
    sandbox = await startSandbox({ stateless: true });
  });
  afterAll(() => sandbox?.close());

  it.skipIf(skipCurl).each(samples.map((s) => [label(s), s] as const))(`%s answers a documented success${skipCurl}`, async (_, sample) => {
    const { status, stderr } = await runCurl(sample, sandbox.url, 'any-token');
    expect(stderr).toBe('');
    expect(successes(sample)).toContain(status);
  });
});
