// A server in a child process (`node server/src/cli.ts`), for tests where the process itself may die: the
// test watches its exit instead of dying with it.
import { type ChildProcess, spawn } from 'node:child_process';
import { join } from 'node:path';
import { jwtSecret, users } from './server.ts';

const cli = join(import.meta.dirname, '..', '..', 'src', 'cli.ts');

export interface ChildServer {
  child: ChildProcess;
  url: string;
  /** Everything it printed so far. */
  output(): string;
  /** Whether it is still running. */
  alive(): boolean;
  stop(): Promise<void>;
}

/**
 * Starts `jes-server` with the test users and `env`; resolves once it listens. The embedded database unless
 * `env` names a DATABASE_URL (one in the test's own environment is not passed on).
 */
export function serveChild(env: Record<string, string>): Promise<ChildServer> {
  const { DATABASE_URL: _notThisOne, ...inherited } = process.env;
  const child = spawn(process.execPath, [cli], {
    env: {
      ...inherited,
      PORT: '0',
      JES_USERS: Object.entries(users).map(([u, p]) => `${u}:${p}`).join(','),
      JES_JWT_SECRET: jwtSecret,
      JES_RATE_LIMITS: 'off',
      LOG_LEVEL: 'warn',
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  const alive = () => child.exitCode === null && child.signalCode === null;
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`the server did not start within 60 s:\n${output}`)), 60_000);
    const onData = (data: Buffer) => {
      output += data.toString();
      const url = /listening on (http:\/\/\S+)/.exec(output)?.[1];
      if (!url) return;
      clearTimeout(timer);
      resolve({
        child,
        url,
        output: () => output,
        alive,
        async stop() {
          if (!alive()) return;
          const exited = new Promise((r) => child.once('exit', r));
          child.kill('SIGTERM');
          const timeout = setTimeout(() => child.kill('SIGKILL'), 10_000);
          await exited;
          clearTimeout(timeout);
        },
      });
    };
    child.stdout!.on('data', onData);
    child.stderr!.on('data', onData);
    child.once('exit', (code, signal) => {
      clearTimeout(timer);
      reject(new Error(`the server exited (${signal ?? code}) before it listened:\n${output}`));
    });
  });
}
