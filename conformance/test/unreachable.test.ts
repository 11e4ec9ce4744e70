// A deployment that stops answering stops the run: the check it happened in and the checks after it are errors
// (not failures) on the console, in JUnit (<error>) and in the markdown report, one line on stderr says so, and
// the command exits 2; the HAR (--har) is written all the same, ending with the request no one answered. A deployment
// that never answered is reported the same way, from the first request.
import { mkdtempSync, readFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { RecordedHar } from '../src/index.ts';
import { startBrokenProxy } from './support/broken-proxy.ts';
import { conformance } from './support/command.ts';
import { type Started, startSandboxTarget } from './support/targets.ts';

let sandbox: Started;
beforeAll(async () => {
  sandbox = await startSandboxTarget({ stateless: true });
});
afterAll(() => sandbox?.stop());

/** A port nothing listens on (a listener's, closed again). */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  return port;
}

it('stops when the deployment stops answering mid-run: exit 2, the rest errors in JUnit and markdown', async () => {
  // The deployment goes away once it has answered the first PROPFIND (unsupported_method's, the sixth check).
  const proxy = await startBrokenProxy(sandbox.url, {
    request: (r, tools) => (r.method === 'PROPFIND' && tools.stop(), r),
  });
  const dir = mkdtempSync(join(tmpdir(), 'jes-conformance-'));
  try {
    const run = await conformance([
      '--base-url',
      proxy.url,
      '--profile',
      'sandbox',
      '--junit',
      join(dir, 'junit.xml'),
      '--report',
      join(dir, 'report.md'),
      '--har',
      join(dir, 'run.har'),
    ]);
    expect(run.code, run.stdout + run.stderr).toBe(2);
    const message = `target ${proxy.url} stopped answering (ECONNREFUSED) during unsupported_method; 11 checks not run`;
    expect(run.stderr).toBe(`jes-conformance: ${message}\n`);
    expect(run.stdout).toMatch(/^passed +missing_auth \[/m);
    expect(run.stdout).toMatch(
      /^error +unsupported_method \[every operation\] \(.*\): the deployment stopped answering: no connection \(ECONNREFUSED\) for PROPFIND \/login$/m,
    );
    expect(run.stdout).toMatch(
      /^error +negative_data_rejection: not run: the deployment stopped answering during unsupported_method$/m,
    );
    expect(run.stdout).toMatch(/^skipped +idempotency: /m);
    expect(run.stdout).not.toMatch(/ECONNREFUSED.*\n.*ECONNREFUSED[\s\S]*ECONNREFUSED/);
    expect(run.stdout.trim().split('\n').at(-1)).toBe('3 passed, 0 failed, 12 skipped, 12 errors');

    const junit = readFileSync(join(dir, 'junit.xml'), 'utf8');
    expect(junit).toMatch(/<testsuites name="jes-conformance" tests="27" failures="0" skipped="12" errors="12"/);
    expect(junit).toMatch(
      /name="unsupported_method" time="[\d.]+">\s*<properties>.*<\/properties>\s*<error message="the deployment stopped answering: no connection \(ECONNREFUSED\) for PROPFIND \/login" type="unreachable">target/,
    );
    expect(junit).toMatch(
      /name="limits" time="0.000">\s*<properties>.*<\/properties>\s*<error message="not run: the deployment stopped answering during unsupported_method" type="unreachable">/,
    );
    expect(junit).not.toMatch(/<failure/);

    const report = readFileSync(join(dir, 'report.md'), 'utf8');
    expect(report).toContain(`**The run stopped: ${message}.** Its checks are errors, not failures.`);
    expect(report).toMatch(
      /^\| `limits` \| .* \| error \| not run: the deployment stopped answering during unsupported_method \|$/m,
    );

    const har = JSON.parse(readFileSync(join(dir, 'run.har'), 'utf8')) as RecordedHar;
    expect(har.log._jes.unreachable).toBe(message);
    const [answered, unanswered] = har.log.entries.slice(-2);
    expect(answered).toMatchObject({ _check: 'unsupported_method', request: { method: 'PROPFIND' } });
    expect(unanswered).toMatchObject({ _check: 'unsupported_method', response: { status: 0 } });
    expect(unanswered!._error).toMatch(/ECONNREFUSED/);
  } finally {
    await proxy.close();
  }
});

// The first request is the run's own, GET /healthz for the deployment's versions: unanswered, no check begins.
it('reports a deployment that does not answer at all the same way, from the first request', async () => {
  const url = `http://127.0.0.1:${await closedPort()}`;
  const run = await conformance(['--base-url', url, '--username', 'alice', '--password', 'any']);
  expect(run.code, run.stdout + run.stderr).toBe(2);
  expect(run.stderr).toBe(
    `jes-conformance: target ${url} is not answering (ECONNREFUSED on GET /healthz); 24 checks not run\n`,
  );
  expect(run.stdout).toMatch(
    /^error +lifecycle: not run: the deployment did not answer: no connection \(ECONNREFUSED\) for GET \/healthz$/m,
  );
  expect(run.stdout).not.toMatch(/^contract |^warning/m);
  expect(run.stdout.trim().split('\n').at(-1)).toBe('0 passed, 0 failed, 3 skipped, 24 errors');
});
