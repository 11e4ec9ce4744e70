// The fuzz targets as child processes: the reference server (`node server/src/start/cli.ts`) and the sandbox
// (`node sandbox/src/cli.ts`), each on a free port. A crash is then an exit we can see, with its output kept
// for the failure message, instead of a vitest worker that dies with it.
import { type ChildServer, node, sandboxCli, serverCli, startChild } from '../support/child-server.ts';
import { cheapUsersSetting } from '../support/users-setting.ts';

/** A target as the campaign watches it: its exit, why, and whether something outside the test ended it. */
export type Target = ChildServer;

/** The users the fuzz runs as: `fuzz0` to `fuzz<count-1>`. */
export function fuzzUsers(count: number): { name: string; password: string }[] {
  return Array.from({ length: count }, (_, i) => ({ name: `fuzz${i}`, password: `fuzz-password-${i}` }));
}

export const jwtSecret = 'fuzz-test-secret-that-is-at-least-32-bytes-long';

/**
 * The reference server on an in-memory embedded database (`env` may name a PostgreSQL), two solver threads,
 * `users` users, and its default rate limits unless `env` sets JES_RATE_LIMITS (see campaign.ts for why one
 * phase of a run raises the submit limit).
 */
export function startServer(users: number, env: Record<string, string> = {}): Promise<Target> {
  return startChild(node(serverCli), {
    what: 'the reference server',
    env: {
      PORT: '0',
      JES_DATA_DIR: 'memory:',
      JES_USERS: cheapUsersSetting(Object.fromEntries(fuzzUsers(users).map((u) => [u.name, u.password]))),
      JES_JWT_SECRET: jwtSecret,
      JES_WORKERS: '2',
      LOG_LEVEL: 'warn',
      ...env,
    },
    timeoutMs: 30_000,
    graceMs: 5000,
  });
}

/** The sandbox: stateless (its fixtures are its example job and file: fixtures.ts), or stateful, as a server. */
export function startSandbox(stateless = true): Promise<Target> {
  return startChild(node(sandboxCli, ...(stateless ? ['--stateless'] : [])), {
    what: stateless ? 'the sandbox' : 'the stateful sandbox',
    env: { SANDBOX_PORT: '0' },
    timeoutMs: 30_000,
    graceMs: 5000,
  });
}
