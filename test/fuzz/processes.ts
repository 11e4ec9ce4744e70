// The fuzz targets as child processes: the reference server (`node server/src/start/cli.ts`) and the sandbox
// (`node sandbox/src/cli.ts`), each on a free port. A crash is then an exit we can see, with its output kept
// for the failure message, instead of a vitest worker that dies with it.
import { type ChildProcess, spawn } from 'node:child_process';
import { join } from 'node:path';

export const repoRoot = join(import.meta.dirname, '../..');

export interface Target {
  url: string;
  /** stdout and stderr as they came, for failure messages. */
  output(): string;
  /** Why the process ended, if it did (`exit code 1`, `signal SIGSEGV`). */
  exited(): string | undefined;
  /** Whether something else stopped it (SIGTERM or SIGINT from outside the test: not a crash). */
  stoppedFromOutside(): boolean;
  stop(): Promise<void>;
}

/** Spawns `node <script>`, resolves once a line of its output matches `ready` (its first group is the URL). */
export function launch(
  script: string,
  env: Record<string, string>,
  ready: RegExp,
  what: string,
  args: string[] = [],
): Promise<Target> {
  // The target's settings are ours alone: none of the caller's (a DATABASE_URL would move the embedded run).
  const inherited = Object.fromEntries(
    Object.entries(process.env).filter(([name]) => !/^(JES_|DATABASE_URL$|PORT$|SANDBOX_|LOG_LEVEL$)/.test(name)),
  );
  const child: ChildProcess = spawn(process.execPath, ['--conditions=jes-source', join(repoRoot, script), ...args], {
    cwd: repoRoot,
    env: { ...inherited, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  let ended: string | undefined;
  let stopping = false;
  const gone = new Promise<void>((resolve) =>
    child.once('exit', (code, signal) => {
      ended = signal ? `signal ${signal}` : `exit code ${code}`;
      resolve();
    }),
  );
  const keep = (chunk: Buffer) => {
    // Every log line of a run (they explain its failures), within bounds for a process that floods its output.
    output += chunk.toString();
    if (output.length > 8 * 2 ** 20) output = `${output.slice(0, 2 ** 20)}\n… (cut) …\n${output.slice(-4 * 2 ** 20)}`;
  };
  child.stdout!.on('data', keep);
  child.stderr!.on('data', keep);
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => fail(`${what} did not start within 30 s`), 30_000);
    const fail = (why: string) => {
      clearTimeout(timer);
      child.kill('SIGKILL');
      reject(new Error(`${why}; its output:\n${output}`));
    };
    const onData = () => {
      const match = ready.exec(output);
      if (!match) return;
      clearTimeout(timer);
      child.stdout!.off('data', onData);
      child.off('exit', onEarlyExit);
      resolve({
        url: match[1]!,
        output: () => output,
        exited: () => ended,
        stoppedFromOutside: () =>
          !stopping &&
          ended !== undefined &&
          (/SIG(TERM|INT)$/.test(ended) ||
            (ended === 'exit code 0' && /^SIG(TERM|INT): shutting down$/m.test(output.slice(-4096)))),
        async stop() {
          stopping = true;
          if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
          const killer = setTimeout(() => child.kill('SIGKILL'), 5000);
          await gone;
          clearTimeout(killer);
        },
      });
    };
    const onEarlyExit = (code: number | null, signal: string | null) =>
      fail(`${what} exited (${signal ?? code}) before it was ready`);
    child.stdout!.on('data', onData);
    child.once('exit', onEarlyExit);
  });
}

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
  return launch(
    'server/src/start/cli.ts',
    {
      PORT: '0',
      JES_DATA_DIR: 'memory:',
      JES_USERS: fuzzUsers(users)
        .map((u) => `${u.name}:${u.password}`)
        .join(','),
      JES_JWT_SECRET: jwtSecret,
      JES_WORKERS: '2',
      LOG_LEVEL: 'warn',
      ...env,
    },
    /listening on (http:\/\/\S+)/,
    'the reference server',
  );
}

/** The sandbox: stateless (its fixtures are its example job and file: fixtures.ts), or stateful, as a server. */
export function startSandbox(stateless = true): Promise<Target> {
  return launch(
    'sandbox/src/cli.ts',
    { SANDBOX_PORT: '0' },
    /listening on (http:\/\/\S+)/,
    stateless ? 'the sandbox' : 'the stateful sandbox',
    stateless ? ['--stateless'] : [],
  );
}
