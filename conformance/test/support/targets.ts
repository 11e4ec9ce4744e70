// What the suite's own tests run it against: the reference server (its CLI as a child process, on a free
// port, PGlite in memory or a throw-away PostgreSQL database) and the sandbox (in this process, on a free
// port, stateful or stateless). The spawning is the client tests' (test support shared across packages, never their sources).
import { type SandboxOptions, startSandbox } from '../../../sandbox/src/server.ts';
import { type Started, startServer, users } from '../../../client/test/support/processes.ts';
import type { ConformanceOptions, Report } from '../../src/index.ts';
import { closingLine, resultText } from '../../src/report/console.ts';

export type { Started };
export { users };

/** alice runs the suite, bob is the second user. */
export const credentials = {
  username: 'alice',
  password: users.alice,
  username2: 'bob',
  password2: users.bob,
} satisfies Partial<ConformanceOptions>;

/** The suite's listener for the webhook checks: any free port of the loopback (webhookHosts lets the server call it). */
export const webhookListen = { webhookListen: '127.0.0.1:0' } satisfies Partial<ConformanceOptions>;

/** The reference server's setting that lets it call the suite's webhook listener on the loopback (it refuses it by default). */
export const webhookHosts = { JES_WEBHOOK_ALLOW_HOSTS: '127.0.0.1' };

/**
 * The reference server with two solver threads, one an execution (teams would double the CPU of the suite's jobs),
 * no rate limits, an in-memory database unless `env` names one.
 */
export function startReference(env: Record<string, string> = {}): Promise<Started> {
  return startServer({ JES_WORKERS: '2', JES_EXECUTION_THREADS: '1', ...env });
}

/** The sandbox: stateful (the default; the full profile) or `{ stateless: true }` (the sandbox profile). */
export async function startSandboxTarget(options: SandboxOptions): Promise<Started> {
  const sandbox = await startSandbox({ port: 0, ...options });
  return { url: sandbox.url, stop: () => sandbox.close() };
}

/** The report as the command prints it (for a test's output, and its failure message). */
export function printed(report: Report): string {
  return [...report.results.map((r) => resultText(r)), closingLine(report)].join('\n');
}
