// The `jes` command line as a user runs it (a child process) against the real reference server:
// login and the kept token, submit/wait/status/output/cancel, data files, exit codes and error lines.
import { execFileSync, spawn, spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { createJesClient } from '../../src/index.ts';
import type { Command } from 'commander';
import { program } from '../../src/cli/program.ts';
import { configHome, jes, jesBin, startJes } from '../support/cli.ts';
import { forgedToken } from '../support/fetches.ts';
import { exampleQubo, sixNodes, sixNodesEdgeList } from '../support/graphs.ts';
import { freePort, repoRoot, type Servers, users } from '../support/processes.ts';

export function cliSuite(servers: Servers): void {
  const noScript = spawnSync('script', ['--version']).error
    ? ' (skipped: no `script` command to give it a terminal; apt-get install bsdutils)'
    : '';
  let env: Record<string, string>;
  const files = configHome();
  const sixJson = join(files, 'six.json');
  const sixTxt = join(files, 'six.txt');

  beforeAll(async () => {
    env = { JES_BASE_URL: servers.main, XDG_CONFIG_HOME: configHome() };
    writeFileSync(sixJson, JSON.stringify(sixNodes));
    writeFileSync(sixTxt, sixNodesEdgeList);
    const login = await jes(['login', '--username', 'demo', '--password-stdin'], env, `${users.demo}\n`);
    expect(login.stderr).toBe('');
    expect(login.code).toBe(0);
  });

  /** Starts a job with `jes --json submit …` and returns its id. */
  async function submit(...args: string[]): Promise<string> {
    const run = await jes(['--json', 'submit', 'maxcut', ...args], env);
    expect(run.stderr).toBe('');
    return JSON.parse(run.stdout).id;
  }

  /** The demo user's client, to check from outside what a command left behind. */
  const demo = () => createJesClient({ baseUrl: servers.main, username: 'demo', password: users.demo });

  describe('jes login', () => {
    it('keeps the token per service URL in $XDG_CONFIG_HOME/jes, readable by the user only, and never prints it', async () => {
      const file = join(env.XDG_CONFIG_HOME!, 'jes', 'credentials.json');
      expect(statSync(file).mode & 0o777).toBe(0o600);
      expect(statSync(join(env.XDG_CONFIG_HOME!, 'jes')).mode & 0o777).toBe(0o700);
      const stored = JSON.parse(readFileSync(file, 'utf8'))[servers.main];
      expect(stored).toMatchObject({ username: 'demo', token: expect.stringMatching(/^[\w-]+\.[\w-]+\.[\w-]+$/) });
      const again = await jes(['--json', 'login', '--username', 'demo', '--password-stdin'], env, users.demo);
      expect(again.stdout).not.toContain(stored.token);
      expect(JSON.parse(again.stdout)).toMatchObject({
        base_url: servers.main,
        username: 'demo',
        credentials_file: file,
      });
    });

    it.skipIf(noScript)(`on a terminal asks for the password without echoing it${noScript}`, async () => {
      const fresh = { ...env, XDG_CONFIG_HOME: configHome() };
      const child = spawn('script', ['-qec', `'${process.execPath}' '${jesBin}' login --username demo`, '/dev/null'], {
        env: { ...process.env, ...fresh },
      });
      let screen = '';
      child.stdout.on('data', (chunk: Buffer) => {
        screen += chunk.toString();
        if (screen.endsWith(`Password for demo at ${servers.main}: `)) child.stdin.write(`${users.demo}\r`);
      });
      const code = await new Promise((resolve) => child.on('close', resolve));
      expect(code).toBe(0);
      expect(screen).toMatch(/^Password for demo at http:\/\/(?:localhost|127\.0\.0\.1):\d+: \r?\nLogged in to /);
      expect(screen).not.toContain(users.demo);
    });

    it('prints a refused login as code: detail and exits 3', async () => {
      const run = await jes(['login', '--username', 'demo', '--password-stdin'], env, 'wrong-password\n');
      expect(run.code).toBe(3);
      expect(run.stderr).toMatch(/^invalid_credentials: The username or password is wrong\./);
    });

    it('takes the user name and password from JES_USERNAME and JES_PASSWORD, the line a first server start prints', async () => {
      const fresh = { ...env, XDG_CONFIG_HOME: configHome(), JES_USERNAME: 'demo', JES_PASSWORD: users.demo };
      const run = await jes(['login'], fresh);
      expect([run.code, run.stderr]).toEqual([0, '']);
      expect(run.stdout).toMatch(/^Logged in to http:\/\/\S+ as demo;/);
      // --password-stdin still wins over JES_PASSWORD.
      const wrong = await jes(['login', '--password-stdin'], { ...fresh, JES_USERNAME: 'nobody' }, users.demo);
      expect([wrong.code, wrong.stderr]).toEqual([3, expect.stringMatching(/^invalid_credentials: /)]);
    });

    it('without a user name asks for --username or JES_USERNAME (usage, exit 2)', async () => {
      const run = await jes(['login', '--password-stdin'], env, users.demo);
      expect(run.code).toBe(2);
      expect(run.stderr).toContain("required option '--username <name>' not specified");
    });

    it('without a terminal asks for --password-stdin (usage, exit 2)', async () => {
      const run = await jes(['login', '--username', 'demo'], env);
      expect(run.code).toBe(2);
      expect(run.stderr).toContain('--password-stdin');
    });

    it('before any login a command exits 3 with missing_token; JES_TOKEN stands in for a login, a refused one is invalid_token', async () => {
      const fresh = { ...env, XDG_CONFIG_HOME: configHome() };
      const before = await jes(['problems'], fresh);
      expect(before.code).toBe(3);
      expect(before.stderr).toMatch(/^missing_token: not logged in to http:\/\/(?:localhost|127\.0\.0\.1):\d+\nhint: /);
      const client = createJesClient({ baseUrl: servers.main });
      const token = (await client.login({ username: 'demo', password: users.demo })).data!.access_token;
      const refused = await jes(['problems'], { ...fresh, JES_TOKEN: forgedToken });
      expect(refused).toMatchObject({
        code: 3,
        stderr: expect.stringMatching(/^invalid_token: .+\nhint: log in again with: jes login --username NAME\n$/),
      });
      const withToken = await jes(['problems'], { ...fresh, JES_TOKEN: token });
      expect(withToken.code).toBe(0);
      expect(withToken.stdout).toMatch(/^ID +NAME +SOLVERS/);
      expect(withToken.stdout).toMatch(/\nmaxcut +Maximum cut +exact/);
    });
  });

  describe('jobs from the command line', () => {
    it('submits a JSON graph inline and waits: plain progress lines, then the job with its cut 53', async () => {
      const run = await jes(['submit', 'maxcut', sixJson, '--solver', 'exact', '--wait'], env);
      expect(run.code).toBe(0);
      expect(run.stderr).toMatch(/^Started job [A-Z0-9]{12} \(maxcut, input inline\)\.\n/);
      expect(run.stderr).toMatch(/[A-Z0-9]{12} FINISHED +best cut +53 +elapsed /);
      expect(run.stderr).not.toContain('\r');
      expect(run.stdout).toMatch(/^Status +FINISHED$/m);
      expect(run.stdout).toMatch(/^exact +SUCCESS +\S+ s +53 +yes/m);
    });

    it('uploads an edge list, then status, wait, output and output --json read the job', async () => {
      const submitted = await jes(
        ['--json', 'submit', 'maxcut', sixTxt, '--solver', 'exact', '--solver', 'local-search', '--time-limit', '0.2'],
        env,
      );
      const { id, input } = JSON.parse(submitted.stdout);
      const dataFile = createHash('sha1').update(sixNodesEdgeList).digest('hex');
      expect(input).toEqual({ mode: 'data_file', data_file_identifier: dataFile, bytes: 77 });
      expect(JSON.parse((await jes(['--json', 'data-files', 'show', dataFile], env)).stdout)).toMatchObject({
        id: dataFile,
        name: 'six.txt',
      });
      expect((await jes(['wait', id], env)).code).toBe(0);
      const [status, output, json] = await Promise.all([
        jes(['status', id], env),
        jes(['output', id], env),
        jes(['--json', 'output', id], env),
      ]);
      expect(status.stdout).toMatch(
        new RegExp(`^Job +${id}\\nStatus +FINISHED\\nUse case +maxcut\\nInput +data file ${dataFile} \\(77 bytes\\)`),
      );
      expect(output.stdout).toMatch(/^exact +53 +yes +53 /m);
      expect(output.stdout).toMatch(/^local-search +53 +no /m);
      expect(JSON.parse(json.stdout).outputs.exact.partition).toHaveLength(6);
    });

    it("submits a QUBO as JSON inline and waits: the lowest energy -11, each solver's energy", async () => {
      const run = await jes(['submit', 'qubo', exampleQubo('four-variables.json'), '--solver', 'exact', '--wait'], env);
      expect(run.stderr).toMatch(/^Started job [A-Z0-9]{12} \(qubo, input inline\)\.\n/);
      expect(run.stderr).toMatch(/[A-Z0-9]{12} FINISHED +lowest energy +-11 +elapsed /);
      expect(run.code).toBe(0);
      expect(run.stdout).toMatch(/^Use case +qubo$/m);
      expect(run.stdout).toMatch(/^Lowest energy +-11$/m);
      expect(run.stdout).toMatch(/^exact +SUCCESS +\S+ s +-11 +yes/m);
    });

    it('uploads a .qubo file as a data file; output shows the energy and output --json the assignment', async () => {
      const file = exampleQubo('four-variables.qubo');
      const submitted = await jes(['--json', 'submit', 'qubo', file, '--solver', 'exact'], env);
      expect(submitted.stderr).toBe('');
      const { id, input, problem_id: problemId } = JSON.parse(submitted.stdout);
      const dataFile = createHash('sha1').update(readFileSync(file)).digest('hex');
      expect([problemId, input]).toEqual(['qubo', { mode: 'data_file', data_file_identifier: dataFile, bytes: 115 }]);
      const shown = await jes(['data-files', 'show', dataFile], env);
      expect(shown.stdout).toMatch(/^Format +qubo$/m);
      expect(shown.stdout).toMatch(/^Variables +4$/m);
      expect((await jes(['wait', id], env)).code).toBe(0);
      const [output, json] = await Promise.all([jes(['output', id], env), jes(['--json', 'output', id], env)]);
      expect(output.stdout).toMatch(/^SOLVER +ENERGY +OPTIMAL +LOWER BOUND +TIME TO BEST$/m);
      expect(output.stdout).toMatch(/^exact +-11 +yes /m);
      expect(JSON.parse(json.stdout).outputs.exact).toMatchObject({ energy: -11, assignment: [1, 0, 0, 1] });
    });

    it('cancels a job; waiting for it then exits 1', async () => {
      const id = await submit(sixJson, '--solver', 'local-search', '--time-limit', '30');
      const cancel = await jes(['cancel', id], env);
      expect(cancel.stdout).toMatch(new RegExp(`^Cancel requested for job ${id} \\(now (PENDING|RUNNING)\\)`));
      const wait = await jes(['wait', id], env);
      expect(wait.code).toBe(1);
      expect(wait.stdout).toMatch(/^Status +CANCELLED$/m);
      const again = await jes(['cancel', id], env);
      expect(again).toMatchObject({
        code: 3,
        stderr: expect.stringMatching(/^job_already_terminal: Job [A-Z0-9]{12} is CANCELLED/),
      });
    });

    it('--idempotency-key runs a submit at most once: the same key again answers the same job (and data file)', async () => {
      const key = `cli-${Date.now()}`;
      const first = await submit(sixJson, '--solver', 'exact', '--idempotency-key', key);
      expect(await submit(sixJson, '--solver', 'exact', '--idempotency-key', key)).toBe(first);
      const reused = await jes(
        ['submit', 'maxcut', sixJson, '--solver', 'local-search', '--idempotency-key', key],
        env,
      );
      expect(reused).toMatchObject({ code: 3, stderr: expect.stringMatching(/^idempotency_key_reused: /) });
      // An edge list goes through an upload first: it is keyed too, so the whole submit replays.
      const upload = [sixTxt, '--solver', 'exact', '--idempotency-key', `${key}-txt`];
      const [once, twice] = [
        await jes(['--json', 'submit', 'maxcut', ...upload], env),
        await jes(['--json', 'submit', 'maxcut', ...upload], env),
      ];
      expect(JSON.parse(twice.stdout)).toMatchObject({
        id: JSON.parse(once.stdout).id,
        input: JSON.parse(once.stdout).input,
      });
      expect((await jes(['submit', 'maxcut', sixJson, '--idempotency-key', 'two words '], env)).code).toBe(2);
    });

    it('deletes an ended job; deleting it again exits 3 with job_not_found', async () => {
      const id = await submit(sixJson, '--solver', 'exact');
      expect((await jes(['wait', id], env)).code).toBe(0);
      expect(await jes(['delete', id], env)).toMatchObject({ code: 0, stdout: `Deleted job ${id}.\n` });
      expect(await jes(['delete', id], env)).toMatchObject({
        code: 3,
        stderr: expect.stringMatching(/^job_not_found: /),
      });
    });

    it('lists jobs newest first; --status takes a status in any case', async () => {
      const id = await submit(sixJson, '--solver', 'exact');
      const list = await jes(['jobs', '--limit', '1'], env);
      expect(list.stdout.split('\n')[1]).toMatch(new RegExp(`^${id} +(PENDING|RUNNING|FINISHED) +maxcut +inline `));
      // Regression: `--status cancelled` was refused (only CANCELLED was).
      const cancelled = await jes(['--json', 'jobs', '--status', 'cancelled'], env);
      expect(cancelled.code).toBe(0);
      expect(JSON.parse(cancelled.stdout).map((job: { status: string }) => job.status)).toEqual(
        expect.arrayContaining(['CANCELLED']),
      );
      expect((await jes(['jobs', '--status', 'Running'], env)).code).toBe(0);
      const wrong = await jes(['jobs', '--status', 'done'], env);
      expect(wrong).toMatchObject({
        code: 2,
        stderr: expect.stringContaining(
          "argument 'done' is invalid. expected one of PENDING, RUNNING, FINISHED, ERROR, CANCELLED (in any case)",
        ),
      });
    });

    // Regression: every finished job showed "-" (listings carry no `data`; the service now keeps best_value).
    it('lists a finished job with its best cut', async () => {
      const id = await submit(sixJson, '--solver', 'exact');
      expect((await jes(['wait', id], env)).code).toBe(0);
      const list = await jes(['jobs', '--status', 'finished', '--limit', '1'], env);
      expect(list.stdout).toMatch(/^JOB +STATUS +USE CASE +INPUT +SUBMITTED +BEST\n/);
      expect(list.stdout.split('\n')[1]).toMatch(new RegExp(`^${id} +FINISHED +maxcut +inline +\\S+ +53$`));
    });

    it("--json prints every job in one shape, the contract's Job with its id: submit, submit --wait, status, wait, cancel, jobs", async () => {
      const json = async (...args: string[]) => JSON.parse((await jes(['--json', ...args], env)).stdout);
      const submitted = await json('submit', 'maxcut', sixJson, '--solver', 'exact');
      const waitedFor = await json('submit', 'maxcut', sixJson, '--solver', 'exact', '--wait');
      const [status, waited, listed] = [
        await json('status', submitted.id),
        await json('wait', submitted.id),
        await json('jobs', '--limit', '2'),
      ];
      const running = await submit(sixJson, '--solver', 'local-search', '--time-limit', '30');
      const cancelled = await json('cancel', running);
      const jobs = { submitted, waitedFor, status, waited, cancelled, listed: listed[1], listedFirst: listed[0] };
      const shape = [
        'id',
        'status',
        'problem_id',
        'input',
        'executions',
        'summary',
        'cancel_requested_at',
        'timestamps',
        'links',
      ];
      for (const [answer, job] of Object.entries(jobs)) {
        expect({ answer, keys: Object.keys(job) }).toEqual({ answer, keys: expect.arrayContaining(shape) });
        expect({ answer, id: job.id }).toEqual({ answer, id: expect.stringMatching(/^[A-Z0-9]{12}$/) });
      }
      expect([status.id, waited.id, listed[1].id]).toEqual([submitted.id, submitted.id, submitted.id]);
      expect([waitedFor.status, waited.status, listed[0].id, cancelled.id]).toEqual([
        'FINISHED',
        'FINISHED',
        waitedFor.id,
        running,
      ]);
      expect(await json('output', submitted.id)).toMatchObject({
        job: submitted.id,
        status: 'FINISHED',
        outputs: { exact: { cut_value: 53 } },
      });
      expect((await demo().waitForJob(running)).data?.status).toBe('CANCELLED');
    });

    it.skipIf(noScript)(
      `on a terminal, the wait keeps one live line (status, best cut, elapsed) rewritten in place${noScript}`,
      async () => {
        // A job of 1.5 s seen through long polls of 1 s: at least one RUNNING line before the FINISHED one.
        const command = [
          process.execPath,
          jesBin,
          'submit',
          'maxcut',
          sixJson,
          '--solver',
          'local-search',
          '--time-limit',
          '1.5',
          '--wait',
        ]
          .map((part) => `'${part}'`)
          .join(' ');
        const screen = execFileSync('script', ['-qec', command, '/dev/null'], {
          env: { ...process.env, ...env },
          encoding: 'utf8',
        });
        const id = /Started job ([A-Z0-9]{12})/.exec(screen)?.[1];
        const line = (status: string, best: string) =>
          new RegExp(`\\r\\x1b\\[2K${id} ${status} +best cut +${best} +elapsed \\d`);
        expect(screen).toMatch(line('RUNNING', '\\d+'));
        expect(screen).toMatch(line('FINISHED', '53'));
        expect(screen).toMatch(/FINISHED +best cut +53 +elapsed [^\n]*\r?\nJob +[A-Z0-9]{12}\r?\nStatus +FINISHED/);
      },
    );
  });

  describe('Ctrl-C while waiting (exit 130)', () => {
    it('leaves the job running and says how to stop it', async () => {
      const run = startJes(
        ['submit', 'maxcut', sixJson, '--solver', 'local-search', '--time-limit', '30', '--wait'],
        env,
      );
      const id = (await run.stderrMatch(/^([A-Z0-9]{12}) (PENDING|RUNNING) +best cut/m))[1]!;
      run.child.kill('SIGINT');
      const ended = await run.ended;
      expect(ended.code).toBe(130);
      expect(ended.stderr).toMatch(
        new RegExp(`\\ninterrupted: job ${id} is still running; stop it with: jes cancel ${id}\\n$`),
      );
      const client = demo();
      expect((await client.getJob(id)).data).toMatchObject({
        status: expect.stringMatching(/^(PENDING|RUNNING)$/),
        cancel_requested_at: null,
      });
      await client.cancelJob(id);
      expect((await client.waitForJob(id)).data?.status).toBe('CANCELLED');
    });

    it('--cancel-on-interrupt cancels the job and says so; without --wait it is a usage error', async () => {
      const id = await submit(sixJson, '--solver', 'local-search', '--time-limit', '30');
      const run = startJes(['wait', id, '--cancel-on-interrupt'], env);
      await run.stderrMatch(/^[A-Z0-9]{12} (PENDING|RUNNING) +best cut/m);
      run.child.kill('SIGINT');
      const ended = await run.ended;
      expect(ended.code).toBe(130);
      expect(ended.stderr).toMatch(
        new RegExp(
          `\\ninterrupted: cancel requested for job ${id} \\(now (PENDING|RUNNING)\\); its solvers stop within a second\\n$`,
        ),
      );
      expect((await demo().waitForJob(id)).data?.status).toBe('CANCELLED');
      const alone = await jes(['submit', 'maxcut', sixJson, '--cancel-on-interrupt'], env);
      expect(alone).toMatchObject({ code: 2, stderr: 'error: --cancel-on-interrupt goes with --wait\n' });
    });
  });

  describe('data files from the command line', () => {
    it('uploads, lists, shows and deletes', async () => {
      const path = join(files, 'path.txt');
      writeFileSync(path, '3 2\n1 2 1\n2 3 1\n');
      const uploaded = JSON.parse(
        (
          await jes(
            ['--json', 'data-files', 'upload', path, '--name', 'six nodes', '--description', 'the example'],
            env,
          )
        ).stdout,
      );
      expect(uploaded).toMatchObject({
        name: 'six nodes',
        description: 'the example',
        status: expect.stringMatching(/PROCESSING|READY/),
      });
      const list = await jes(['data-files', 'list'], env);
      expect(list.stdout).toMatch(new RegExp(`^${uploaded.id} +six nodes +(PROCESSING|READY)`, 'm'));
      const show = await jes(['data-files', 'show', uploaded.id], env);
      expect(show.stdout).toMatch(
        new RegExp(`^Identifier +${uploaded.id}\\nName +six nodes\\nDescription +the example\\nStatus `),
      );
      expect((await jes(['data-files', 'delete', uploaded.id], env)).stdout).toBe(
        `Deleted data file ${uploaded.id}.\n`,
      );
      const gone = await jes(['data-files', 'show', uploaded.id], env);
      expect(gone).toMatchObject({ code: 3, stderr: expect.stringMatching(/^data_file_not_found: /) });
    });

    // Regression: the start said "failed validation; see GET /data_file/<id>" instead of why.
    it("a job from a data file that failed validation is refused with the reason: the file's error and its lines", async () => {
      const broken = join(files, 'broken.txt');
      writeFileSync(broken, '3 2\n1 2 x\n');
      const { id } = JSON.parse((await jes(['--json', 'data-files', 'upload', broken], env)).stdout);
      let shown = await jes(['data-files', 'show', id], env);
      for (let i = 0; i < 100 && /^Status +PROCESSING$/m.test(shown.stdout); i++)
        shown = await jes(['data-files', 'show', id], env);
      expect(shown.stdout).toMatch(/^Status +INVALID$/m);
      expect(shown.stdout).toMatch(/^Error +data_file_invalid: Line 2: [^\n]+\n {14}\/line\/2: [^\n]+$/m);
      const run = await jes(['submit', 'maxcut', '--data-file', id], env);
      expect(run.code).toBe(3);
      expect(run.stderr).toMatch(
        new RegExp(`^data_file_invalid: Data file ${id} failed validation: Line 2: [^\\n]+\\n  /line/2: [^\\n]+\\n`),
      );
      expect(run.stderr).not.toMatch(/GET |\/data_file\//);
      const json = await jes(['--json', 'submit', 'maxcut', '--data-file', id], env);
      expect(JSON.parse(json.stderr)).toMatchObject({
        status: 422,
        code: 'data_file_invalid',
        detail: expect.stringContaining('failed validation: Line 2: '),
        errors: expect.arrayContaining([expect.objectContaining({ pointer: '/line/2' })]),
      });
    });

    it.skipIf(noScript)(
      `on a terminal, an upload shows its progress: bytes sent of the total, percentage, rate${noScript}`,
      async () => {
        const ring = join(files, 'ring.txt');
        const n = 100_000;
        writeFileSync(
          ring,
          `${n} ${n}\n${Array.from({ length: n }, (_, i) => `${i + 1} ${((i + 1) % n) + 1} 1\n`).join('')}`,
        );
        const command = [process.execPath, jesBin, 'data-files', 'upload', ring].map((part) => `'${part}'`).join(' ');
        const screen = execFileSync('script', ['-qec', command, '/dev/null'], {
          env: { ...process.env, ...env },
          encoding: 'utf8',
        });
        const size = `${(statSync(ring).size / 1024 ** 2).toFixed(1)} MiB`;
        expect(screen).toMatch(new RegExp(`^\\r\\x1b\\[2KUploading ring\\.txt: 0 B of ${size} \\(0%\\)\\r\\x1b\\[2K`));
        expect(screen).toMatch(
          new RegExp(
            `\\r\\x1b\\[2KUploading ring\\.txt: ${size} of ${size} \\(100%\\), [\\d.]+ (B|KiB|MiB|GiB)/s\\r?\\nUploaded ring\\.txt as data file [0-9a-f]{40}`,
          ),
        );
        // Not on a terminal (and with --json): no progress at all.
        const plain = await jes(['data-files', 'upload', ring], env);
        expect(plain).toMatchObject({ code: 0, stderr: '' });
      },
    );
  });

  describe('exit codes and error lines', () => {
    it('usage errors exit 2 with a message: unknown or missing command, unknown use case, missing file, bad value, conflicting options', async () => {
      const cases = [
        ['bogus'],
        ['data-files'],
        ['submit', 'tsp', sixJson],
        ['submit', 'maxcut', '/nonexistent/graph.json'],
        ['submit', 'maxcut'],
        ['submit', 'maxcut', sixJson, '--data-file', 'd6e02699b78918a5032ec7a872e2de7800c3a15a'],
        ['submit', 'maxcut', sixJson, '--time-limit', 'soon'],
        ['--sandbox', '--base-url', 'http://localhost:1', 'problems'],
      ];
      const runs = await Promise.all(cases.map((args) => jes(args, env)));
      runs.forEach((run, i) =>
        expect({ args: cases[i], code: run.code, message: run.stderr !== '' }).toEqual({
          args: cases[i],
          code: 2,
          message: true,
        }),
      );
    });

    it("--version prints the version of @jes/client; every command's --help shows the global options", async () => {
      const { version } = JSON.parse(readFileSync(join(repoRoot, 'client/package.json'), 'utf8'));
      for (const flag of ['--version', '-v'])
        expect(await jes([flag], env)).toEqual({ code: 0, stdout: `${version}\n`, stderr: '' });
      const paths = (command: Command, above: string[] = []): string[][] =>
        command.commands
          .filter((c) => c.name() !== 'help')
          .flatMap((c) => [[...above, c.name()], ...paths(c, [...above, c.name()])]);
      const commands = paths(program());
      expect(commands).toContainEqual(['data-files', 'upload']);
      const helps = await Promise.all(commands.map((command) => jes([...command, '--help'], env)));
      helps.forEach((help, i) => {
        const global = help.stdout.split('Global Options:\n')[1] ?? '';
        expect({
          command: commands[i],
          code: help.code,
          json: global.includes('--json'),
          baseUrl: global.includes('--base-url <url>'),
          sandbox: global.includes('--sandbox'),
        }).toEqual({ command: commands[i], code: 0, json: true, baseUrl: true, sandbox: true });
      });
    });

    it('--base-url and $JES_BASE_URL take a bare host:port as http://; an unusable URL is a usage error saying what is wrong', async () => {
      // Regression: `--base-url localhost:3000` was connection_failed (unknown scheme), hinting to start the server.
      const bare = servers.main.replace(/^http:\/\//, '');
      for (const run of [
        await jes(['--base-url', bare, 'problems'], env),
        await jes(['problems'], { ...env, JES_BASE_URL: `${bare}/` }),
      ]) {
        expect(run).toMatchObject({ code: 0, stdout: expect.stringMatching(/\nmaxcut +Maximum cut/) });
      }
      const cases: [string[], Record<string, string>, string][] = [
        [
          ['--base-url', 'ftp://localhost:3000'],
          {},
          '--base-url "ftp://localhost:3000" has the scheme ftp: expected http or https',
        ],
        [['--base-url', 'localhost:99999'], {}, '--base-url "localhost:99999" has the port 99999: expected 1 to 65535'],
        [
          ['--base-url', 'http://localhost:3000/?page=1'],
          {},
          '--base-url "http://localhost:3000/?page=1" has a query or a fragment: give the service\'s root URL',
        ],
        [
          ['--base-url', 'http://demo:secret@localhost:3000'],
          {},
          '--base-url "http://demo:secret@localhost:3000" carries a user name or password: log in with jes login instead',
        ],
        [
          ['--base-url', 'http:localhost'],
          {},
          '--base-url "http:localhost" is not a URL: expected http://host:port, https://host or host:port',
        ],
        [[], { JES_BASE_URL: 'localhost: 3000' }, '$JES_BASE_URL "localhost: 3000" contains white space'],
      ];
      const runs = await Promise.all(cases.map(([args, extra]) => jes([...args, 'problems'], { ...env, ...extra })));
      runs.forEach((run, i) => expect(run).toEqual({ code: 2, stdout: '', stderr: `error: ${cases[i]![2]}\n` }));
    });

    it("prints a problem's errors (pointer: detail) under it, and hints that name jes commands, never API paths", async () => {
      // Regression: `jes status nope` printed the detail alone, without the pointer to what was wrong.
      expect(await jes(['status', 'nope'], env)).toMatchObject({
        code: 3,
        stderr: expect.stringMatching(
          /^invalid_request: [^\n]+\n {2}\/path\/job_id: must match pattern "\^\[A-Z0-9\]\{12\}\$"\nhint: jes jobs lists your jobs\n$/,
        ),
      });
      const running = await submit(sixJson, '--solver', 'local-search', '--time-limit', '30');
      const cases: [string[], string, string][] = [
        [['status', 'ZZZZZZZZZZZZ'], 'job_not_found', 'jes jobs lists your jobs'],
        [['data-files', 'show', 'f'.repeat(40)], 'data_file_not_found', 'jes data-files list lists your data files'],
        [
          ['submit', 'maxcut', sixJson, '--solver', 'nope'],
          'solver_not_found',
          "jes problems lists each use case's solvers",
        ],
        [
          ['delete', running],
          'job_not_finished',
          `wait for it to end with: jes wait ${running} (or stop it with: jes cancel ${running})`,
        ],
        [
          ['output', running],
          'job_not_finished',
          `wait for it to end with: jes wait ${running} (or stop it with: jes cancel ${running})`,
        ],
        [['problems'], 'invalid_token', 'log in again with: jes login --username NAME'],
      ];
      const runs = await Promise.all(
        cases.map(([args], i) => jes(args, i === cases.length - 1 ? { ...env, JES_TOKEN: forgedToken } : env)),
      );
      runs.forEach((run, i) => {
        const [args, code, hint] = cases[i]!;
        expect({
          args,
          code: run.code,
          problem: run.stderr.split(':')[0],
          hint: run.stderr.split('\nhint: ')[1],
        }).toEqual({ args, code: 3, problem: code, hint: `${hint}\n` });
        expect(hint).not.toMatch(/\b(GET|POST|DELETE)\b|\/(job|data_file|problem)\b/);
      });
      await jes(['cancel', running], env);
    });

    it("with --json a failure is JSON on stderr, exit codes unchanged: the API's problem, or the command line's own code and detail", async () => {
      const problem = await jes(['--json', 'status', 'nope'], env);
      expect(problem).toMatchObject({ code: 3, stdout: '' });
      expect(JSON.parse(problem.stderr)).toMatchObject({
        status: 400,
        code: 'invalid_request',
        errors: [{ pointer: '/path/job_id' }],
        request_id: expect.any(String),
      });
      const closed = `http://127.0.0.1:${await freePort()}`;
      const cases: [string[], Record<string, string>, number, object][] = [
        [
          ['jobs', '--status', 'done', '--json'],
          {},
          2,
          { code: 'usage_error', detail: expect.stringContaining("argument 'done' is invalid") },
        ],
        [['--json', 'bogus'], {}, 2, { code: 'usage_error', detail: "unknown command 'bogus'" }],
        [['--json'], {}, 2, { code: 'usage_error', detail: 'a command is missing (run jes --help for usage)' }],
        [
          ['--json', 'submit', 'maxcut', '/nonexistent/graph.json'],
          {},
          2,
          { code: 'usage_error', detail: 'cannot read /nonexistent/graph.json: ENOENT' },
        ],
        [
          ['--json', '--base-url', 'ftp://x', 'problems'],
          {},
          2,
          { code: 'usage_error', detail: '--base-url "ftp://x" has the scheme ftp: expected http or https' },
        ],
        [
          ['--json', '--base-url', closed, 'problems'],
          { JES_TOKEN: 'x.y.z' },
          3,
          { code: 'connection_failed', detail: `cannot reach ${closed} (ECONNREFUSED)` },
        ],
        [
          ['--json', 'problems'],
          { XDG_CONFIG_HOME: configHome() },
          3,
          { code: 'missing_token', detail: `not logged in to ${servers.main}` },
        ],
      ];
      const runs = await Promise.all(cases.map(([args, extra]) => jes(args, { ...env, ...extra })));
      runs.forEach((run, i) => {
        const [args, , code, failure] = cases[i]!;
        expect({ args, code: run.code, stdout: run.stdout, stderr: JSON.parse(run.stderr) }).toEqual({
          args,
          code,
          stdout: '',
          stderr: failure,
        });
      });
    });

    it('an unknown job is job_not_found (exit 3); an unreachable service is connection_failed (exit 3)', async () => {
      const unknown = await jes(['status', 'ZZZZZZZZZZZZ'], env);
      expect(unknown).toMatchObject({
        code: 3,
        stderr: expect.stringMatching(
          /^job_not_found: No job ZZZZZZZZZZZZ exists for this user\.\nhint: jes jobs lists your jobs\n$/,
        ),
      });
      const closed = `http://127.0.0.1:${await freePort()}`;
      const down = await jes(['--base-url', closed, 'problems'], { ...env, JES_TOKEN: 'x.y.z' });
      expect(down).toMatchObject({
        code: 3,
        stderr: `connection_failed: cannot reach ${closed} (ECONNREFUSED)\nhint: start the server (npm start) or the sandbox (npm run sandbox), or pass --base-url\n`,
      });
    });

    it('--help exits 0 and names the exit codes', async () => {
      const help = await jes(['--help'], env);
      expect(help.code).toBe(0);
      expect(help.stdout).toContain(
        'Exit codes: 0 ok, 1 the job ended in ERROR or CANCELLED, 2 usage, 3 HTTP or problem error (printed as "code: detail"), 130 interrupted.',
      );
    });
  });
}
