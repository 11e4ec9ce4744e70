// A server in a child process (`node server/src/start/cli.ts`), for tests where the process itself may die: the
// test watches its exit instead of dying with it; or one on a terminal (`script`), as `npm start` runs; or
// one that should refuse to start, run to its end.
import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { stripVTControlCharacters } from 'node:util';
import { jwtSecret, users } from './server.ts';

const cli = join(import.meta.dirname, '..', '..', 'src', 'start', 'cli.ts');

/** Why a test on a terminal cannot run here ('' when util-linux's `script` is there to give one). */
export const noTerminal =
  spawnSync('script', ['-qec', 'true', '/dev/null']).status === 0
    ? ''
    : ' (skipped: no `script` command for a terminal)';

export interface ChildServer {
  child: ChildProcess;
  url: string;
  /** Everything it printed so far. */
  output(): string;
  /** Waits until its output, colours taken out, matches `pattern` (within 10 s); returns the match. */
  printed(pattern: RegExp): Promise<RegExpExecArray>;
  /** Whether it is still running. */
  alive(): boolean;
  stop(): Promise<void>;
}

function childEnv(env: Record<string, string>): NodeJS.ProcessEnv {
  const { DATABASE_URL: _notThisOne, ...inherited } = process.env;
  return {
    ...inherited,
    PORT: '0',
    JES_USERS: Object.entries(users)
      .map(([u, p]) => `${u}:${p}`)
      .join(','),
    JES_JWT_SECRET: jwtSecret,
    JES_RATE_LIMITS: 'off',
    LOG_LEVEL: 'warn',
    ...env,
  };
}

/**
 * Starts `jes-server` with the test users and `env`; resolves once it listens. The embedded database unless
 * `env` names a DATABASE_URL (one in the test's own environment is not passed on). With `terminal`, its
 * stdout and stderr are a terminal (util-linux's `script`, in a process group of its own that stop() ends).
 */
export function serveChild(env: Record<string, string>, { terminal = false } = {}): Promise<ChildServer> {
  const child = terminal
    ? spawn('script', ['-qefc', `'${process.execPath}' --conditions=jes-source '${cli}'`, '/dev/null'], {
        env: childEnv(env),
        stdio: ['pipe', 'pipe', 'pipe'],
        detached: true,
      })
    : spawn(process.execPath, ['--conditions=jes-source', cli], {
        env: childEnv(env),
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
        async printed(pattern) {
          for (let i = 0; i < 200; i++) {
            const found = pattern.exec(stripVTControlCharacters(output));
            if (found) return found;
            await new Promise((r) => setTimeout(r, 50));
          }
          throw new Error(`never printed ${pattern}:\n${output}`);
        },
        alive,
        async stop() {
          if (!alive()) return;
          const exited = new Promise((r) => child.once('exit', r));
          const kill = (signal: NodeJS.Signals) => (terminal ? process.kill(-child.pid!, signal) : child.kill(signal));
          kill('SIGTERM');
          const timeout = setTimeout(() => kill('SIGKILL'), 10_000);
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

/** Runs `jes-server` with the test users and `env` to its end (one that should refuse to start); what it printed. */
export function runChild(
  env: Record<string, string>,
): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const child = spawn(process.execPath, ['--conditions=jes-source', cli], {
    env: childEnv(env),
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (data: Buffer) => (stdout += data.toString()));
  child.stderr.on('data', (data: Buffer) => (stderr += data.toString()));
  const timer = setTimeout(() => child.kill('SIGKILL'), 60_000);
  return new Promise((resolve) =>
    child.once('close', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    }),
  );
}
