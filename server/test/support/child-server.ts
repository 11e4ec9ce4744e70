// jes-server in a child process with the test users (test/support/child-server.ts starts it), for tests where the
// process itself may die: the test watches its exit instead of dying with it; or one on a terminal (`script`), as
// `npm start` runs; or one that should refuse to start, run to its end.
import {
  type ChildServer,
  node,
  type Ran,
  runChild as runToEnd,
  serverCli,
  startChild,
} from '../../../test/support/child-server.ts';
import { testEnv } from './server.ts';

export { type ChildServer, noTerminal } from '../../../test/support/child-server.ts';

/** The test server's settings (testEnv), its warnings and errors printed: the tests read them. */
const settings = (env: Record<string, string>) => testEnv({ LOG_LEVEL: 'warn', ...env });

/**
 * Starts `jes-server` with the test users and `env`; resolves once it listens. An in-memory database unless `env`
 * names a DATABASE_URL or JES_DATA_DIR another folder. With `terminal`, its stdout and stderr are a terminal.
 */
export function serveChild(env: Record<string, string>, { terminal = false } = {}): Promise<ChildServer> {
  return startChild(node(serverCli), { env: settings(env), terminal, what: 'jes-server' });
}

/** Runs `jes-server` with the test users and `env` to its end (one that should refuse to start); what it printed. */
export function runChild(env: Record<string, string>): Promise<Ran> {
  return runToEnd(node(serverCli), { env: settings(env) });
}
