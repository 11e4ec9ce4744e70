// Real processes for the client's tests: the reference server (its CLI, never its source) and the Prism
// sandbox, each on a free port, stopped by the pid this file started.
import { type ChildProcess, spawn } from 'node:child_process';
import { createServer } from 'node:net';
import { join } from 'node:path';

export const repoRoot = join(import.meta.dirname, '../../..');
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

export interface Started {
  url: string;
  stop(): Promise<void>;
}

/** Spawns `command`, resolves once a line of its output matches `ready` (its first group is the URL). */
function startProcess(args: string[], env: NodeJS.ProcessEnv, ready: RegExp, what: string): Promise<Started> {
  const child: ChildProcess = spawn(process.execPath, ['--conditions=jes-source', ...args], {
    cwd: repoRoot,
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  let ok = false;
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => fail(`${what} did not start within 30 s`), 30_000);
    const fail = (why: string) => {
      if (ok) return;
      clearTimeout(timer);
      child.kill('SIGKILL');
      reject(new Error(`${why}; its output:\n${output}`));
    };
    const onData = (chunk: Buffer) => {
      output += chunk.toString();
      const match = ready.exec(output);
      if (!match) return;
      ok = true;
      clearTimeout(timer);
      child.stdout?.off('data', onData);
      child.stdout?.resume();
      child.stderr?.resume();
      resolve({
        url: match[1]!,
        async stop() {
          if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
          await exited;
        },
      });
    };
    child.stdout?.on('data', onData);
    child.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.once('exit', (code, signal) => fail(`${what} exited (${code ?? signal}) before it was ready`));
  });
}

/** The reference server on a free port and an in-memory database, with the users above. */
export function startServer(env: Record<string, string> = {}): Promise<Started> {
  return startProcess(
    ['server/src/start/cli.ts'],
    {
      ...process.env,
      PORT: '0',
      JES_DATA_DIR: 'memory:',
      JES_USERS: Object.entries(users)
        .map(([name, password]) => `${name}:${password}`)
        .join(','),
      JES_JWT_SECRET: jwtSecret,
      JES_WORKERS: '1',
      JES_RATE_LIMITS: 'off',
      LOG_LEVEL: 'silent',
      ...env,
    },
    /listening on (http:\/\/\S+)/,
    'the reference server',
  );
}

/** A port nothing listens on (just now). */
export async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  return port;
}

/** The Prism sandbox (`npm run sandbox`, with `args`: `--stateless`, `--seed 1`) on a free port. */
export async function startSandbox(args: string[] = []): Promise<Started> {
  const port = await freePort();
  return startProcess(
    [join(repoRoot, 'sandbox/src/cli.ts'), ...args],
    { ...process.env, SANDBOX_PORT: String(port) },
    /listening on (http:\/\/\S+)/,
    'the Prism sandbox',
  );
}
