// The jes-conformance command as a child process, against the sandbox: its output (one line per check, the
// coverage, the closing line), the JUnit and markdown files, the variables, --help and --version, and its exit
// codes.
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { Contract } from '../src/contract/contract.ts';
import { checkNames } from '../src/index.ts';
import { cli, conformance } from './support/command.ts';
import { type Started, startSandboxTarget } from './support/targets.ts';

let sandbox: Started;
beforeAll(async () => {
  sandbox = await startSandboxTarget({ stateless: true });
});
afterAll(() => sandbox?.stop());

it('passes against the sandbox with --profile sandbox, printing a line per check and writing JUnit and markdown', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'jes-conformance-'));
  const run = await conformance([
    '--base-url',
    sandbox.url,
    '--profile',
    'sandbox',
    '--junit',
    join(dir, 'junit.xml'),
    '--report',
    join(dir, 'report.md'),
  ]);
  expect(run.code, run.stdout + run.stderr).toBe(0);
  const lines = run.stdout.trim().split('\n');
  expect(lines[0]).toBe(
    `jes-conformance: ${sandbox.url} (profile sandbox; fast-check seed 20261122, 8 cases per target)`,
  );
  // The sandbox reports its GET /healthz example's versions: the contract's own, so no warning follows.
  const version = new Contract().doc.info.version as string;
  const v = version.replaceAll('.', '\\.');
  expect(lines[1]).toMatch(
    new RegExp(`^contract ${v} \\(this suite\\) · deployment reports contract ${v}, server \\S+$`),
  );
  expect(lines[2]).toMatch(/^passed +lifecycle /);
  expect(lines.at(-1)).toBe('14 passed, 0 failed, 12 skipped');
  // The coverage, before the closing line: every operation, the documented statuses seen and never provoked.
  expect(run.stdout).toMatch(
    /^coverage: 26 of 26 operations called; \d+ of \d+ documented statuses seen, the others never provoked$/m,
  );
  expect(run.stdout).toMatch(/^ {2}getHealth +GET \/healthz +1 request +seen 200 +never 400 500 503$/m);
  expect(run.stdout).toMatch(
    /^ {2}deleteJob +DELETE \/job\/\{job_id\} +\d+ requests +seen 204 401 +never 400 404 409 429 500 503$/m,
  );
  expect(run.stdout).toMatch(/^ {2}\d+ requests to methods and paths the contract lacks, answered 404 405$/m);
  for (const name of checkNames()) expect(run.stdout).toMatch(new RegExp(`^(passed|skipped) +${name}\\b`, 'm'));
  expect(run.stdout).toMatch(/^skipped +ignored_auth: the sandbox accepts any well-formed bearer token/m);
  const junit = readFileSync(join(dir, 'junit.xml'), 'utf8');
  expect(junit).toMatch(/<testsuites name="jes-conformance" tests="26" failures="0" skipped="12"/);
  expect(junit).toContain(`<property name="contract_version" value="${version}"/>`);
  expect(junit).toMatch(
    /<testcase classname="jes-conformance.sandbox" name="isolation" time="[\d.]+">\s*<properties>.*<\/properties>\s*<skipped message="the sandbox is stateless/,
  );
  const report = readFileSync(join(dir, 'report.md'), 'utf8');
  expect(report).toMatch(/^# Conformance report: http/);
  expect(report).toMatch(
    new RegExp(`^Versions: contract ${v} \\(this suite\\) · deployment reports contract ${v}, server \\S+\\.$`, 'm'),
  );
  expect(report).toMatch(/^\| `use_after_free` \| .* \| skipped \| the sandbox is stateless/m);
  expect(report).toMatch(
    /^## Coverage\n\n\| Operation \| Requests \| Documented statuses seen \| Never provoked \| Undocumented statuses \|$/m,
  );
  expect(report).toMatch(/^\| `getHealth` GET \/healthz \| 1 \| 200 \| 400, 500, 503 \| – \|$/m);
});

it('exits 1 when a check fails, printing the request and response that broke it', async () => {
  // The sandbox is no deployment: it takes any token, which the full profile refuses.
  const run = await conformance(['--only', 'ignored_auth'], {
    JES_CONFORMANCE_BASE_URL: sandbox.url,
    JES_CONFORMANCE_USERNAME: 'a',
    JES_CONFORMANCE_PASSWORD: 'b',
  });
  expect(run.code).toBe(1);
  expect(run.stdout).toMatch(/^failed +ignored_auth \[/m);
  expect(run.stdout).toMatch(/✗ listProblems with a bad signature: expected 401 invalid_token, got 200/);
  expect(run.stdout).toMatch(
    /→ GET http:\/\/127\.0\.0\.1:\d+\/problem \(sent by ignored_auth\)\n +authorization: Bearer \(hidden\)$/m,
  );
  expect(run.stdout).toMatch(/← 200 \(\d+ ms\)/);
  expect(run.stdout.trim().split('\n').at(-1)).toBe('0 passed, 1 failed, 0 skipped');
});

it('conformance/README.md describes every check in its table', () => {
  const readme = readFileSync(join(import.meta.dirname, '../README.md'), 'utf8');
  for (const name of checkNames()) expect(readme).toMatch(new RegExp(`^\\| \`${name}\` \\|`, 'm'));
});

it('exits 2 on a usage error, and lists the checks with --list', async () => {
  expect((await conformance(['--only', 'no_such_check'])).code).toBe(2);
  const missing = await conformance(['--base-url', sandbox.url], {
    JES_CONFORMANCE_USERNAME: '',
    JES_CONFORMANCE_PASSWORD: '',
  });
  expect(missing).toMatchObject({ code: 2, stderr: expect.stringMatching(/--username and --password are required/) });
  expect((await conformance(['--second-user', 'nopassword', '--profile', 'sandbox'])).code).toBe(2);
  const scheme = await conformance(['--base-url', 'localhost:3000', '--profile', 'sandbox']);
  expect(scheme).toMatchObject({
    code: 2,
    stderr: 'error: --base-url takes an http:// or https:// URL; got "localhost:3000" (http://localhost:3000?)\n',
  });
  // The listener's address goes into the webhook's URL: one no deployment can call is a usage error.
  const unspecified = await conformance(['--webhook-listen', '0.0.0.0:8080', '--profile', 'sandbox']);
  expect(unspecified).toMatchObject({ code: 2, stderr: expect.stringMatching(/--webhook-listen.*not 0\.0\.0\.0/) });
  const list = await conformance(['--list']);
  expect(list.code).toBe(0);
  expect(
    list.stdout
      .trim()
      .split('\n')
      .map((l) => l.split(' ')[0]),
  ).toEqual(checkNames());
});

it('prints its version, and a --help that names each default once and never a password', async () => {
  const version = await conformance(['--version']);
  const { version: packaged } = JSON.parse(readFileSync(join(import.meta.dirname, '../package.json'), 'utf8')) as {
    version: string;
  };
  expect(version).toMatchObject({ code: 0, stdout: `${packaged}\n` });
  const help = await conformance(['--help'], {
    JES_CONFORMANCE_PASSWORD: 'hunter2-in-the-environment',
    JES_CONFORMANCE_BASE_URL: '',
  });
  expect(help.code).toBe(0);
  expect(help.stdout.match(/http:\/\/localhost:3000/g)).toHaveLength(1);
  expect(help.stdout).toMatch(
    /--base-url <url> +the deployment \(default:\s+"http:\/\/localhost:3000", env:\s+JES_CONFORMANCE_BASE_URL\)/,
  );
  expect(help.stdout).not.toMatch(/hunter2/);
  expect(help.stdout).toMatch(/--rate-limit <n\/s>/);
  expect(help.stdout).toMatch(/JES_RATE_LIMITS=off/);
});

// `jes-conformance --help | head -1`: the reader closes the pipe before the command has written. Here the
// pipe is closed before the command even starts writing, so that it meets the closed pipe on every run.
it.each([['--help'], ['--list'], ['--version']])(
  'exits quietly when its output is closed (%s | head -1)',
  async (option) => {
    const child = spawn(process.execPath, ['--conditions=jes-source', cli, option], {
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    child.stdout.destroy();
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    const code = await new Promise((resolve) => child.on('close', resolve));
    expect({ code, stderr }).toEqual({ code: 0, stderr: '' });
  },
);

it('ends a run whose output is closed with 141, not as a pass', async () => {
  const child = spawn(
    process.execPath,
    ['--conditions=jes-source', cli, '--base-url', 'http://127.0.0.1:9', '--username', 'u', '--password', 'p'],
    { stdio: ['ignore', 'pipe', 'pipe'] },
  );
  child.stdout.destroy();
  const code = await new Promise((resolve) => child.on('close', resolve));
  expect(code).toBe(141);
});
