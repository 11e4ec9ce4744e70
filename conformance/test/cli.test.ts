// The jes-conformance command as a child process, against the sandbox: its output (one line per check, the
// coverage, the closing line), the JUnit and markdown files, the variables, --help and --version, and its exit
// codes; the settings file (after the command line and the variables, its refusals, read in this process where
// no other folder is needed) and the GitHub Actions annotations, read back as the runner parses them.
import { existsSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse, stringify } from 'yaml';
import { runWithClosedOutput } from '../../test/support/closed-pipe.ts';
import { deprecatedContract } from '../../test/support/deprecated-contract.ts';
import { Contract } from '../src/contract/contract.ts';
import { checkNames } from '../src/index.ts';
import { run } from '../src/program.ts';
import { printable } from '../src/report/printable.ts';
import { workflowCommand as githubCommand } from '../src/report/github.ts';
import { startBrokenProxy } from './support/broken-proxy.ts';
import { brokenBehaviours } from './support/breakages.ts';
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
  expect(lines.at(-1)).toBe('15 passed, 0 failed, 12 skipped');
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
  // Without a budget response_time passes, noting the times (the tour's answers and every check's before it).
  expect(run.stdout).toMatch(
    /^passed +response_time \[every operation\] .*\n +· \d+ answers timed: p50 \d+ ms, p95 \d+ ms, max \d+ ms \(left out as slow by design: \d+ long polls? \(Prefer: wait\);/m,
  );
  const junit = readFileSync(join(dir, 'junit.xml'), 'utf8');
  expect(junit).toMatch(/<testsuites name="jes-conformance" tests="27" failures="0" skipped="12"/);
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

// `jes-conformance --list | head -1`: the reader closes the pipe before the command has written. Help and version, as
// every command's, are test/scripts/launch.test's.
it('exits quietly when the output of --list is closed (--list | head -1)', async () => {
  expect(await runWithClosedOutput([cli, '--list'])).toEqual({ code: 0, stderr: '' });
});

it('ends a run whose output is closed with 141, not as a pass', async () => {
  const { code } = await runWithClosedOutput([
    cli,
    ...['--base-url', 'http://127.0.0.1:9', '--username', 'u', '--password', 'p'],
  ]);
  expect(code).toBe(141);
});

describe('the settings file', () => {
  const dir = mkdtempSync(join(tmpdir(), 'jes-conformance-settings-'));
  /** Runs the command in this process with `env` set for the run; its exit code and what it wrote. */
  async function inProcess(args: string[], env: Record<string, string> = {}) {
    const out: string[] = [];
    const err: string[] = [];
    const before = Object.fromEntries(Object.keys(env).map((name) => [name, process.env[name]]));
    Object.assign(process.env, env);
    try {
      return {
        code: await run(
          args,
          (l) => out.push(l),
          (l) => err.push(l),
        ),
        out,
        err,
      };
    } finally {
      for (const [name, value] of Object.entries(before))
        if (value === undefined) delete process.env[name];
        else process.env[name] = value;
    }
  }
  function settings(name: string, content: unknown): string {
    mkdirSync(join(dir, 'sub'), { recursive: true });
    const path = join(dir, 'sub', name);
    writeFileSync(path, typeof content === 'string' ? content : JSON.stringify(content));
    return path;
  }

  it('comes after the command line and the variables, resolves paths against its folder, warns of a secret', async () => {
    const path = settings('settings.json', {
      baseUrl: 'http://127.0.0.1:9',
      profile: 'sandbox',
      password: 'from-the-file',
      seed: 7,
      runs: 3,
      only: ['ignored_auth'],
      report: 'report.md',
    });
    const ran = await inProcess(['--config', path, '--runs', '5'], { JES_CONFORMANCE_BASE_URL: sandbox.url });
    expect(ran.code, [...ran.out, ...ran.err].join('\n')).toBe(0);
    expect(ran.out[0]).toBe(
      `jes-conformance: ${sandbox.url} (profile sandbox; fast-check seed 7, 5 cases per target; settings from ${path})`,
    );
    expect(ran.err).toEqual([
      `warning: ${path} holds a secret in "password": a settings file is easily committed and shared; give it by JES_CONFORMANCE_PASSWORD instead, or keep the file out of version control`,
    ]);
    expect(existsSync(join(dir, 'sub', 'report.md'))).toBe(true);
  });

  it.each([
    [{ bseUrl: 'http://x' }, /: unknown key "bseUrl" \(the keys are the options' long names in camelCase: baseUrl, /],
    [{ runs: 'many' }, /: "runs": expected a whole number; got "many"$/],
    [{ runs: true }, /: "runs": expected a string or a number; got true$/],
    [{ profile: 'fast' }, /: "profile": Allowed choices are full, sandbox; got "fast"$/],
    [{ seed: [1, 2] }, /: "seed": expected one value, not a list; got \[1,2\]$/],
    [{ githubAnnotations: 'yes' }, /: "githubAnnotations": expected true or false; got "yes"$/],
    ['{"baseUrl": ', / is not JSON: /],
  ])('refuses %j in one line naming the key', async (content, message) => {
    const ran = await inProcess(['--config', settings('wrong.json', content), '--profile', 'sandbox']);
    expect(ran).toMatchObject({ code: 2, out: [] });
    expect(ran.err).toHaveLength(1);
    expect(ran.err[0]).toMatch(/^error: \/.*wrong\.json/);
    expect(ran.err[0]).toMatch(message);
  });

  it('refuses a replay path without one check, or not of the form a failure gives, and a budget of 0 ms', async () => {
    const sandboxed = ['--base-url', sandbox.url, '--profile', 'sandbox'];
    expect(await inProcess([...sandboxed, '--replay-path', '5/0:1'])).toMatchObject({
      code: 2,
      err: ['error: --replay-path replays a case of one check: give that check with --only <check>'],
    });
    const form = await inProcess([...sandboxed, '--only', 'negative_data_rejection', '--replay-path', '0:1']);
    expect(form.code).toBe(2);
    const budget = await inProcess([...sandboxed, '--max-response-time', '0']);
    expect(budget.code).toBe(2);
  });

  it('is read from ./jes-conformance.config.json when there is one, and the heading says so', async () => {
    writeFileSync(
      join(dir, 'jes-conformance.config.json'),
      JSON.stringify({ baseUrl: sandbox.url, profile: 'sandbox', only: ['ignored_auth'] }),
    );
    const ran = await conformance([], {}, dir);
    expect(ran.code, ran.stdout + ran.stderr).toBe(0);
    expect(ran.stdout.split('\n')[0]).toBe(
      `jes-conformance: ${sandbox.url} (profile sandbox; fast-check seed 20261122, 8 cases per target; settings from ./jes-conformance.config.json)`,
    );
  });
});

describe('under GitHub Actions', () => {
  /** The contract as a deployment of another version would have it, with listProblems deprecated. */
  function otherContract(): string {
    const doc = parse(readFileSync(deprecatedContract(), 'utf8'));
    doc.info.version = '1.99.0';
    const path = join(mkdtempSync(join(tmpdir(), 'jes-conformance-other-')), 'openapi.yaml');
    writeFileSync(path, stringify(doc, { lineWidth: 0 }));
    return path;
  }

  /** A workflow command parsed as the runner reads it, its message and properties unescaped. */
  function workflowCommand(line: string) {
    const match = /^::(error|warning|notice)(?: ([^:]*))?::(.*)$/.exec(line);
    if (!match) return undefined;
    const unescape = (text: string) =>
      text
        .replaceAll('%0A', '\n')
        .replaceAll('%0D', '\r')
        .replaceAll('%3A', ':')
        .replaceAll('%2C', ',')
        .replaceAll('%25', '%');
    const properties = Object.fromEntries(
      (match[2] ? match[2].split(',') : []).map((p) => {
        const [name, value] = p.split('=');
        return [name, unescape(value!)];
      }),
    );
    return { command: match[1], properties, message: unescape(match[3]!) };
  }

  it("prints a deployment's words on one line: newlines, escape sequences and other control characters escaped", () => {
    expect(printable('a\nb\r\u001b[31mc\u0000\td\u2028')).toBe('a\\nb\\r\\u001b[31mc\\u0000\td\\u2028');
  });

  it('escapes a workflow command as GitHub documents: %, CR, LF in the message, and : , in properties too', () => {
    expect(githubCommand('error', '100% sure\r\nnext: a, b', { title: 'check: one, two' })).toBe(
      '::error title=check%3A one%2C two::100%25 sure%0D%0Anext: a, b',
    );
    expect(workflowCommand(githubCommand('warning', 'x%0Ay\n', { title: '%' }))).toEqual({
      command: 'warning',
      properties: { title: '%' },
      message: 'x%0Ay\n',
    });
  });

  /** The lines the runner takes as workflow commands: none between `::stop-commands::<token>` and `::<token>::`. */
  function processed(stdout: string): string[] {
    let stopped: string | undefined;
    const commands: string[] = [];
    for (const line of stdout.split('\n')) {
      if (stopped !== undefined) {
        if (line === `::${stopped}::`) stopped = undefined;
        continue;
      }
      const stop = /^::stop-commands::(.+)$/.exec(line);
      if (stop) stopped = stop[1];
      else if (line.startsWith('::')) commands.push(line);
    }
    return commands;
  }

  it('annotates each failure, the version warning and the deprecated operations used, and writes the job summary', async () => {
    const summary = join(mkdtempSync(join(tmpdir(), 'jes-conformance-summary-')), 'summary.md');
    writeFileSync(summary, '# Earlier steps\n');
    // A deployment that answers GET /problem with 203, held to a contract of another version that deprecates it.
    const breakage = brokenBehaviours.find((b) => b.what === 'answers GET /problem with 203')!;
    // Its answers open with lines of their own: a workflow command the runner must not take as one.
    const forged = '\n::warning title=forged::from the deployment\n';
    const proxy = await startBrokenProxy(sandbox.url, {
      ...breakage.breakage,
      response: async (request, answer, tools) => {
        const changed = await breakage.breakage.response!(request, answer, tools);
        if (request.url.split('?')[0] !== '/problem') return changed;
        return { ...changed, body: Buffer.concat([Buffer.from(forged), changed.body]) };
      },
    });
    try {
      const args = ['--base-url', proxy.url, '--profile', 'sandbox', '--only', breakage.check];
      const ran = await conformance([...args, '--contract', otherContract()], {
        GITHUB_ACTIONS: 'true',
        GITHUB_STEP_SUMMARY: summary,
      });
      expect(ran.code, ran.stdout + ran.stderr).toBe(1);
      // The deployment's words are printed on one line each (its newlines escaped), and the run's output is read
      // with commands stopped but for the suite's own annotations, which the runner reads after their own token.
      expect(ran.stdout).not.toMatch(/^::warning title=forged/m);
      expect(ran.stdout).toMatch(/^::stop-commands::[0-9a-f]{32}$/m);
      const commands = processed(ran.stdout);
      expect(commands.join('\n')).not.toMatch(/forged/);
      expect(processed(`${ran.stdout}\n::notice::after the run`).at(-1), 'commands run again after it').toBe(
        '::notice::after the run',
      );
      const parsed = commands.map(workflowCommand);
      expect(parsed.every(Boolean), commands.join('\n')).toBe(true);
      const failures = Number(
        new RegExp(`^failed +${breakage.check} .*, (\\d+) failures?\\)$`, 'm').exec(ran.stdout)?.[1],
      );
      const errors = parsed.filter((c) => c!.command === 'error');
      expect(errors.length).toBeGreaterThan(0);
      expect(errors).toHaveLength(failures);
      const written = readFileSync(summary, 'utf8');
      for (const error of errors) {
        expect(error!.properties).toEqual({ title: breakage.check });
        const [message, request, ...reproduce] = error!.message.split('\n');
        expect(message).toMatch(/ 203\b/);
        expect(request).toMatch(/^GET http:\/\/127\.0\.0\.1:\d+\/problem → 203 \(\d+ ms\)$/);
        expect(reproduce.at(-1)).toMatch(/^Reproduce with: curl /);
        // The failure as the markdown report in the job's summary writes it.
        expect(written).toContain(`\n- ${message}\n`);
      }
      expect(errors.some((e) => breakage.message.test(e!.message))).toBe(true);
      const warnings = parsed.filter((c) => c!.command === 'warning');
      expect(warnings.map((w) => w!.properties.title)).toEqual(['contract version', 'deprecated operations']);
      expect(warnings[0]!.message).toMatch(/1\.99\.0/);
      expect(warnings[1]!.message).toMatch(
        /^deprecated operations used: listProblems \(GET \/problem, deprecated since /,
      );
      expect(written).toMatch(/^# Earlier steps\n# Conformance report: http/);

      const off = await conformance([...args, '--no-github-annotations'], { GITHUB_ACTIONS: 'true' });
      expect(off.code).toBe(1);
      expect(off.stdout).not.toMatch(/^::/m);
    } finally {
      await proxy.close();
    }
  });
});
