// The benchmark's child processes: the jes server and the bare Express app on free loopback ports, started and
// stopped by test/support/child-server.ts; every one still running is stopped when the benchmark is interrupted.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type ChildServer, node, type StartOptions, startChild, stopAll } from '../../test/support/child-server.ts';
import { user } from './settings.ts';

export { stopAll };

for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.on(signal, () => void stopAll().finally(() => process.exit(130)));
}

/** Starts `command` as `what`, given 15 s to stop: a server with a large store takes a while to close it. */
export function startProcess(
  what: string,
  command: string[],
  env: NodeJS.ProcessEnv = {},
  options: StartOptions = {},
): Promise<ChildServer> {
  return startChild(command, { what, env, graceMs: 15_000, ...options });
}

/** A benchmarked server's settings: the benchmark's user, no rate limits or job cap in the way, `overrides`. */
export function serverEnv(overrides: Record<string, string>): Record<string, string> {
  return {
    PORT: '0',
    JES_DATA_DIR: 'memory:',
    JES_USERS: `${user.username}:${user.password}`,
    JES_RATE_LIMITS: 'off',
    JES_MAX_ACTIVE_JOBS: '100000',
    JES_VALIDATE_RESPONSES: 'on',
    LOG_LEVEL: 'warn',
    ...overrides,
  };
}

/** Data folders made for the servers started here, removed when this process exits. */
const dataDirs: string[] = [];
process.on('exit', () => {
  for (const dir of dataDirs) rmSync(dir, { recursive: true, force: true });
});

/**
 * The jes server with `workers` solver threads, on the embedded database in a fresh folder on disk: the server's
 * default storage (what `npm start` runs), not the in-memory database the tests use. `script` is this clone's
 * (its TypeScript sources) unless another is given, such as an installed package's bin/jes-server.js.
 */
export const startServer = async (
  workers: number,
  env: Record<string, string> = {},
  script = 'server/src/start/cli.ts',
): Promise<ChildServer & { dataDir: string }> => {
  const dir = mkdtempSync(join(tmpdir(), 'jes-bench-'));
  dataDirs.push(dir);
  const dataDir = join(dir, 'data');
  const started = await startProcess(
    `jes server (${script}, embedded, JES_WORKERS=${workers})`,
    node(script),
    serverEnv({ JES_WORKERS: String(workers), JES_DATA_DIR: dataDir, ...env }),
  );
  return { ...started, dataDir };
};

export const startBare = (body: Buffer) =>
  startProcess(
    'bare express',
    node('bench/bare-express.ts'),
    { BARE_ROUTE: '/job/:job_id', BARE_BODY: body.toString('utf8') },
    { timeoutMs: 20_000 },
  );
