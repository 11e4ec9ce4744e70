// The benchmark's child processes: the jes server and the bare Express app, started on free loopback ports.
import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { root, user } from './settings.ts';

// ---------------------------------------------------------------------------------------------------
// Child processes

export const children = new Set<ChildProcess>();

export interface Started {
  proc: ChildProcess;
  /** http://127.0.0.1:PORT */
  base: string;
  stderr: () => string;
}

/** Spawns `node <script>` with `env`, waits for the line that names its port. */
export async function startChild(
  name: string,
  script: string,
  env: NodeJS.ProcessEnv,
  timeoutMs = 60_000,
): Promise<Started> {
  const proc = spawn(process.execPath, ['--conditions=jes-source', script], {
    cwd: root,
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  children.add(proc);
  proc.once('exit', () => children.delete(proc));
  let stderr = '';
  proc.stderr!.setEncoding('utf8').on('data', (chunk: string) => {
    stderr = (stderr + chunk).slice(-20_000);
  });
  const lines = createInterface({ input: proc.stdout! });
  const port = await new Promise<number>((resolve, reject) => {
    const timer = setTimeout(
      () => reject(new Error(`${name} did not start within ${timeoutMs / 1000} s\n${stderr}`)),
      timeoutMs,
    );
    lines.on('line', (line) => {
      const match = /listening on http:\/\/(?:localhost|127\.0\.0\.1|\[::1?\]):(\d+)/.exec(line);
      if (match) {
        clearTimeout(timer);
        resolve(Number(match[1]));
      }
    });
    proc.once('exit', (code, signal) => {
      clearTimeout(timer);
      reject(new Error(`${name} exited (${code ?? signal}) before listening\n${stderr}`));
    });
  });
  // Keep draining stdout so the child never blocks on a full pipe.
  lines.on('line', () => {});
  return { proc, base: `http://127.0.0.1:${port}`, stderr: () => stderr };
}

export async function stopChild(proc: ChildProcess): Promise<void> {
  if (proc.exitCode !== null || proc.signalCode !== null) return;
  const exited = once(proc, 'exit');
  proc.kill('SIGTERM');
  const timer = setTimeout(() => proc.kill('SIGKILL'), 15_000);
  await exited;
  clearTimeout(timer);
}

export async function stopAll(): Promise<void> {
  await Promise.all([...children].map(stopChild));
}

process.on('exit', () => {
  for (const proc of children) proc.kill('SIGKILL');
});
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.on(signal, () => void stopAll().finally(() => process.exit(130)));
}

export function serverEnv(overrides: Record<string, string>): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...process.env };
  for (const key of Object.keys(env))
    if (key.startsWith('JES_') || key === 'DATABASE_URL' || key === 'PORT' || key === 'LOG_LEVEL') delete env[key];
  return {
    ...env,
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
): Promise<Started & { dataDir: string }> => {
  const dir = mkdtempSync(join(tmpdir(), 'jes-bench-'));
  dataDirs.push(dir);
  const dataDir = join(dir, 'data');
  const started = await startChild(
    `jes server (${script}, embedded, JES_WORKERS=${workers})`,
    script,
    serverEnv({ JES_WORKERS: String(workers), JES_DATA_DIR: dataDir, ...env }),
  );
  return { ...started, dataDir };
};

export const startBare = (body: Buffer) => {
  const env: NodeJS.ProcessEnv = { ...process.env, BARE_ROUTE: '/job/:job_id', BARE_BODY: body.toString('utf8') };
  return startChild('bare express', 'bench/bare-express.ts', env, 20_000);
};
