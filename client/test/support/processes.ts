// Real processes for the client's tests: the reference server (its CLI, never its source) and the Prism sandbox,
// each on a free port, started and stopped by test/support/child-server.ts.
import {
  type ChildServer,
  freePort,
  node,
  sandboxCli,
  serverCli,
  startChild,
} from '../../../test/support/child-server.ts';
import { cheapUsersSetting } from '../../../test/support/users-setting.ts';

export { freePort, repoRoot } from '../../../test/support/child-server.ts';
/** What the client's tests and the conformance suite's use of a server: where it is, and how to stop it. */
export type Started = Pick<ChildServer, 'url' | 'stop'>;

export const users = {
  alice: 'alice-password-1',
  bob: 'bob-password-2',
  carol: 'carol-password-3',
  demo: 'correct-horse-battery-staple',
};
export const jwtSecret = 'client-tests-secret-that-is-at-least-32-bytes';

/** The URLs of the servers a test file started (filled in by its beforeAll, read by the suites' tests). */
export interface Servers {
  /** No rate limits. */
  main: string;
  /** A `default` quota of 2 requests per second per user. */
  rateLimited: string;
}

/** The reference server on a free port and an in-memory database, with the users above. */
export function startServer(env: Record<string, string> = {}): Promise<Started> {
  return startChild(node(serverCli), {
    what: 'the reference server',
    env: {
      PORT: '0',
      JES_DATA_DIR: 'memory:',
      JES_USERS: cheapUsersSetting(users),
      JES_JWT_SECRET: jwtSecret,
      JES_WORKERS: '1',
      JES_RATE_LIMITS: 'off',
      LOG_LEVEL: 'silent',
      ...env,
    },
  });
}

/** The Prism sandbox (`npm run sandbox`, with `args`: `--stateless`, `--seed 1`) on a free port. */
export async function startSandbox(args: string[] = []): Promise<Started> {
  return startChild(node(sandboxCli, ...args), {
    what: 'the Prism sandbox',
    env: { SANDBOX_PORT: String(await freePort()) },
  });
}
