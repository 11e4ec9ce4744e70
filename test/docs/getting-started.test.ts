// The README's first command and docs/getting-started.md as a new user meets them: the server started the way the
// README starts it (`npm start` in the repository, after the `npm ci` this test run already had), the line its first
// start prints pasted into the shell, then every sh block of the guide, in order, in that one bash, as written but
// for the port (the guide's http://localhost:3000 is the server's free port here). Each `# prints X` comment is held
// to what its command printed, and the jobs and data files the guide made end as it says. The guides once logged in
// with a password that only a server started otherwise had: pasted, step 1 gave TOKEN=null without a word.
import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { root } from '../../scripts/generated.ts';
import { type ChildServer, startChild } from '../support/child-server.ts';

/** The fenced blocks of `language` in a Markdown file, in order. */
const blocks = (file: string, language: string) =>
  [...readFileSync(join(root, file), 'utf8').matchAll(new RegExp('^```' + language + '\\n([\\s\\S]*?)^```', 'gm'))].map(
    (m) => m[1]!,
  );

const missing = ['bash', 'curl', 'jq'].find((tool) => spawnSync(tool, ['--version']).error);
if (missing && process.env.CI) throw new Error(`no ${missing} on PATH; .ci/run installs it`);
if (missing) console.warn(`skipping the getting-started walkthrough: no ${missing} on PATH (apt-get install ${missing})`);

/** This Node first on PATH (npm runs the bin on it). */
const path = `${dirname(process.execPath)}:${process.env.PATH ?? ''}`;
/** A clean environment: none of the caller's JES_* or PORT. */
const cleanEnv = () => ({
  ...Object.fromEntries(Object.entries(process.env).filter(([name]) => !name.startsWith('JES_') && name !== 'PORT')),
  PATH: path,
});

describe.skipIf(missing)('the README, then getting started, pasted', () => {
  const scratch = mkdtempSync(join(tmpdir(), 'jes-getting-started-'));
  let server: ChildServer;
  let url: string;
  let pasted: string;

  beforeAll(async () => {
    const first = blocks('README.md', 'sh').find((block) => block.startsWith('npm ci'));
    expect(first, "the README's first command").toBe('npm ci && npm start\n');
    // Settings, not edits: a fresh data folder (./data may hold a developer's own), and any free port.
    // Without the caller's settings (test/support/child-server.ts keeps them from it), in a process group of its own.
    server = await startChild(['bash', '-c', first!.replace('npm ci && ', '')], {
      what: 'npm start',
      cwd: root,
      env: { PATH: path, PORT: '0', JES_DATA_DIR: join(scratch, 'data') },
      group: true,
      // Its URL, then the log-in line to paste.
      ready: /listening on (http:\/\/\S+)[\s\S]*^ {2}(export JES_USERNAME=demo JES_PASSWORD='[\w-]+')$/m,
    });
    [url, pasted] = [server.url, server.ready[2]!];
    symlinkSync(join(root, 'examples'), join(scratch, 'examples'));
  }, 90_000);

  afterAll(async () => {
    await server?.stop();
    rmSync(scratch, { recursive: true, force: true });
  });

  it('prints the line to paste once, and the guide runs to its end with it, each step as it says', async () => {
    const steps = blocks('docs/getting-started.md', 'sh');
    const script = [
      pasted,
      // Each step's output begins on a line of its own (a curl answer ends without a newline).
      ...steps.flatMap((step, i) => [`printf '\\n@@ step ${i}\\n'`, step.replaceAll('http://localhost:3000', url)]),
      `printf '\\n@@ end\\n'`,
      'echo "$TOKEN $JOB $DF $DSTATUS $QJOB $QDF"',
    ].join('\n');
    const run = await new Promise<{ code: number | null; stdout: string; stderr: string }>((resolve) => {
      const child = spawn('bash', ['-c', script], { cwd: scratch, env: cleanEnv(), stdio: ['ignore', 'pipe', 'pipe'] });
      let [stdout, stderr] = ['', ''];
      child.stdout.on('data', (chunk: Buffer) => (stdout += chunk));
      child.stderr.on('data', (chunk: Buffer) => (stderr += chunk));
      child.on('close', (code) => resolve({ code, stdout, stderr }));
    });
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    const printed = run.stdout.split(/^@@ (?:step \d+|end)\n/m).slice(1);
    expect(printed).toHaveLength(steps.length + 1);

    // Every "# prints X" is what the command printed.
    steps.forEach((step, i) => {
      for (const [, promised] of step.matchAll(/# prints (.+)$/gm))
        expect(printed[i]!.split('\n'), `step ${i}: ${step}`).toContain(promised!.trim());
    });
    const [token, job, dataFile, dataFileStatus, quboJob, quboFile] = printed.at(-1)!.trim().split(' ');
    expect(token).toMatch(/^[\w-]+\.[\w-]+\.[\w-]+$/);
    expect([job, quboJob]).toEqual([expect.stringMatching(/^[A-Z0-9]{12}$/), expect.stringMatching(/^[A-Z0-9]{12}$/)]);
    expect([dataFile, dataFileStatus, quboFile]).toEqual([
      'd6e02699b78918a5032ec7a872e2de7800c3a15a',
      'READY',
      expect.stringMatching(/^[0-9a-f]{40}$/),
    ]);
    // The waiting loop saw the job end, and the output step read both solvers' cut of 53.
    const waited = steps.findIndex((step) => step.includes('Prefer: wait=30'));
    expect(printed[waited]!.trim().split('\n').at(-1)).toBe('FINISHED');
    const outputs = JSON.parse(printed[steps.findIndex((step) => step.includes('/output"'))]!).outputs;
    expect([outputs.exact.cut_value, outputs['local-search'].cut_value]).toEqual([53, 53]);

    // The jobs the guide leaves running end as it says: 53 from the data file, -11 for the QUBO.
    const read = async (id: string) => {
      for (;;) {
        const answer = await fetch(`${url}/job/${id}`, { headers: { authorization: `Bearer ${token}`, prefer: 'wait=10' } });
        const body = (await answer.json()) as { job: Record<string, { status: string; executions: Record<string, { data: any }> }> };
        if (['FINISHED', 'ERROR', 'CANCELLED'].includes(body.job[id]!.status)) return body.job[id]!;
      }
    };
    const fromFile = await read(job!);
    expect(Object.values(fromFile.executions).map((e) => e.data?.cut_value)).toContain(53);
    expect((await read(quboJob!)).executions.exact!.data.energy).toBe(-11);
    expect(server.output().match(/export JES_USERNAME=/g)).toHaveLength(1);
  }, 120_000);
});
