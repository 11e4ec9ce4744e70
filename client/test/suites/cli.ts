// The `jes` command line as a user runs it (a child process) against the real reference server:
// login and the kept token, submit/wait/status/output/cancel, data files, exit codes and error lines.
import { execFileSync, spawn, spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { createJesClient } from '../../src/index.ts';
import { configHome, jes, jesBin } from '../support/cli.ts';
import { forgedToken } from '../support/fetches.ts';
import { sixNodes, sixNodesEdgeList } from '../support/graphs.ts';
import { freePort, type Servers, users } from '../support/processes.ts';

export function cliSuite(servers: Servers): void {
  const noScript = spawnSync('script', ['--version']).error ? ' (skipped: no `script` command to give it a terminal; apt-get install bsdutils)' : '';
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
    return JSON.parse(run.stdout).job;
  }

  describe('jes login', () => {
    it('keeps the token per service URL in $XDG_CONFIG_HOME/jes, readable by the user only, and never prints it', async () => {
      const file = join(env.XDG_CONFIG_HOME!, 'jes', 'credentials.json');
      expect(statSync(file).mode & 0o777).toBe(0o600);
      expect(statSync(join(env.XDG_CONFIG_HOME!, 'jes')).mode & 0o777).toBe(0o700);
      const stored = JSON.parse(readFileSync(file, 'utf8'))[servers.main];
      expect(stored).toMatchObject({ username: 'demo', token: expect.stringMatching(/^[\w-]+\.[\w-]+\.[\w-]+$/) });
      const again = await jes(['--json', 'login', '--username', 'demo', '--password-stdin'], env, users.demo);
      expect(again.stdout).not.toContain(stored.token);
      expect(JSON.parse(again.stdout)).toMatchObject({ base_url: servers.main, username: 'demo', credentials_file: file });
    });

    it.skipIf(noScript)(`on a terminal asks for the password without echoing it${noScript}`, async () => {
      const fresh = { ...env, XDG_CONFIG_HOME: configHome() };
      const child = spawn('script', ['-qec', `'${process.execPath}' '${jesBin}' login --username demo`, '/dev/null'], { env: { ...process.env, ...fresh } });
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
      expect(refused).toMatchObject({ code: 3, stderr: expect.stringMatching(/^invalid_token: .+\nhint: log in again with: jes login --username NAME\n$/) });
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
      const submitted = await jes(['--json', 'submit', 'maxcut', sixTxt, '--solver', 'exact', '--solver', 'local-search', '--time-limit', '0.2'], env);
      const { job: id, data_file } = JSON.parse(submitted.stdout);
      expect(data_file).toMatchObject({ id: createHash('sha1').update(sixNodesEdgeList).digest('hex'), name: 'six.txt' });
      expect((await jes(['wait', id], env)).code).toBe(0);
      const [status, output, json] = await Promise.all([jes(['status', id], env), jes(['output', id], env), jes(['--json', 'output', id], env)]);
      expect(status.stdout).toMatch(new RegExp(`^Job +${id}\\nStatus +FINISHED\\nUse case +maxcut\\nInput +data file ${data_file.id} \\(77 bytes\\)`));
      expect(output.stdout).toMatch(/^exact +53 +yes +53 /m);
      expect(output.stdout).toMatch(/^local-search +53 +no /m);
      expect(JSON.parse(json.stdout).outputs.exact.partition).toHaveLength(6);
    });

    it('cancels a job; waiting for it then exits 1', async () => {
      const id = await submit(sixJson, '--solver', 'local-search', '--time-limit', '30');
      const cancel = await jes(['cancel', id], env);
      expect(cancel.stdout).toMatch(new RegExp(`^Cancel requested for job ${id} \\(now (PENDING|RUNNING)\\)`));
      const wait = await jes(['wait', id], env);
      expect(wait.code).toBe(1);
      expect(wait.stdout).toMatch(/^Status +CANCELLED$/m);
      const again = await jes(['cancel', id], env);
      expect(again).toMatchObject({ code: 3, stderr: expect.stringMatching(/^job_already_terminal: Job [A-Z0-9]{12} is CANCELLED/) });
    });

    it('--idempotency-key runs a submit at most once: the same key again answers the same job (and data file)', async () => {
      const key = `cli-${Date.now()}`;
      const first = await submit(sixJson, '--solver', 'exact', '--idempotency-key', key);
      expect(await submit(sixJson, '--solver', 'exact', '--idempotency-key', key)).toBe(first);
      const reused = await jes(['submit', 'maxcut', sixJson, '--solver', 'local-search', '--idempotency-key', key], env);
      expect(reused).toMatchObject({ code: 3, stderr: expect.stringMatching(/^idempotency_key_reused: /) });
      // An edge list goes through an upload first: it is keyed too, so the whole submit replays.
      const upload = [sixTxt, '--solver', 'exact', '--idempotency-key', `${key}-txt`];
      const [once, twice] = [await jes(['--json', 'submit', 'maxcut', ...upload], env), await jes(['--json', 'submit', 'maxcut', ...upload], env)];
      expect(JSON.parse(twice.stdout)).toEqual(JSON.parse(once.stdout));
      expect((await jes(['submit', 'maxcut', sixJson, '--idempotency-key', 'two words '], env)).code).toBe(2);
    });

    it('deletes an ended job; deleting it again exits 3 with job_not_found', async () => {
      const id = await submit(sixJson, '--solver', 'exact');
      expect((await jes(['wait', id], env)).code).toBe(0);
      expect(await jes(['delete', id], env)).toMatchObject({ code: 0, stdout: `Deleted job ${id}.\n` });
      expect(await jes(['delete', id], env)).toMatchObject({ code: 3, stderr: expect.stringMatching(/^job_not_found: /) });
    });

    it('lists jobs newest first', async () => {
      const id = await submit(sixJson, '--solver', 'exact');
      const list = await jes(['jobs', '--limit', '1'], env);
      expect(list.stdout.split('\n')[1]).toMatch(new RegExp(`^${id} +(PENDING|RUNNING|FINISHED) +maxcut +inline `));
    });

      it.skipIf(noScript)(`on a terminal, the wait keeps one live line (status, best cut, elapsed) rewritten in place${noScript}`, async () => {
      // A job of 1.5 s seen through long polls of 1 s: at least one RUNNING line before the FINISHED one.
      const command = [process.execPath, jesBin, 'submit', 'maxcut', sixJson, '--solver', 'local-search', '--time-limit', '1.5', '--wait'].map((part) => `'${part}'`).join(' ');
      const screen = execFileSync('script', ['-qec', command, '/dev/null'], { env: { ...process.env, ...env }, encoding: 'utf8' });
      const id = /Started job ([A-Z0-9]{12})/.exec(screen)?.[1];
      const line = (status: string, best: string) => new RegExp(`\\r\\x1b\\[2K${id} ${status} +best cut +${best} +elapsed \\d`);
      expect(screen).toMatch(line('RUNNING', '\\d+'));
      expect(screen).toMatch(line('FINISHED', '53'));
      expect(screen).toMatch(/FINISHED +best cut +53 +elapsed [^\n]*\r?\nJob +[A-Z0-9]{12}\r?\nStatus +FINISHED/);
    });
  });

  describe('data files from the command line', () => {
    it('uploads, lists, shows and deletes', async () => {
      const path = join(files, 'path.txt');
      writeFileSync(path, '3 2\n1 2 1\n2 3 1\n');
      const uploaded = JSON.parse((await jes(['--json', 'data-files', 'upload', path, '--name', 'six nodes', '--description', 'the example'], env)).stdout);
      expect(uploaded).toMatchObject({ name: 'six nodes', description: 'the example', status: expect.stringMatching(/PROCESSING|READY/) });
      const list = await jes(['data-files', 'list'], env);
      expect(list.stdout).toMatch(new RegExp(`^${uploaded.id} +six nodes +(PROCESSING|READY)`, 'm'));
      const show = await jes(['data-files', 'show', uploaded.id], env);
      expect(show.stdout).toMatch(new RegExp(`^Identifier +${uploaded.id}\\nName +six nodes\\nDescription +the example\\nStatus `));
      expect((await jes(['data-files', 'delete', uploaded.id], env)).stdout).toBe(`Deleted data file ${uploaded.id}.\n`);
      const gone = await jes(['data-files', 'show', uploaded.id], env);
      expect(gone).toMatchObject({ code: 3, stderr: expect.stringMatching(/^data_file_not_found: /) });
    });
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
      runs.forEach((run, i) => expect({ args: cases[i], code: run.code, message: run.stderr !== '' }).toEqual({ args: cases[i], code: 2, message: true }));
    });

    it('an unknown job is job_not_found (exit 3); an unreachable service is connection_failed (exit 3)', async () => {
      const unknown = await jes(['status', 'ZZZZZZZZZZZZ'], env);
      expect(unknown).toMatchObject({ code: 3, stderr: expect.stringMatching(/^job_not_found: No job ZZZZZZZZZZZZ exists for this user\.\n$/) });
      const closed = `http://127.0.0.1:${await freePort()}`;
      const down = await jes(['--base-url', closed, 'problems'], { ...env, JES_TOKEN: 'x.y.z' });
      expect(down).toMatchObject({ code: 3, stderr: `connection_failed: cannot reach ${closed} (ECONNREFUSED)\nhint: start the server (npm start) or the sandbox (npm run sandbox), or pass --base-url\n` });
    });

    it('--help exits 0 and names the exit codes', async () => {
      const help = await jes(['--help'], env);
      expect(help.code).toBe(0);
      expect(help.stdout).toContain('Exit codes: 0 ok, 1 the job ended in ERROR or CANCELLED, 2 usage, 3 HTTP or problem error');
    });
  });
}
