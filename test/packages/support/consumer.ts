// The packages as a user gets them: every workspace packed by `npm pack` (so each one's prepack build runs),
// the tarballs installed by npm into a fresh project outside the repository (test/packages/consumer and the
// 6-node example beside them), the commands run through `npx` as a user types them, on Node 24 and on Node 22
// from the npm registry's node@22 package (kept in a cache outside the repository, as .ci/run keeps Node 24).
import { spawn } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, readdirSync, statSync } from 'node:fs';
import { homedir } from 'node:os';
import { dirname, join } from 'node:path';
import { type ChildServer, startChild } from '../../support/child-server.ts';

export const repoRoot = join(import.meta.dirname, '..', '..', '..');

export interface Ran {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** Runs a command to its end (killed after `timeoutMs`), with `input` on its stdin. */
export function run(
  command: string,
  args: string[],
  options: { cwd: string; env?: NodeJS.ProcessEnv; input?: string; timeoutMs?: number },
): Promise<Ran> {
  const child = spawn(command, args, {
    cwd: options.cwd,
    env: options.env ?? process.env,
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  // A child that exits without reading its input makes the write fail with EPIPE: its exit status says what
  // happened, and the error must not go unhandled (it failed a CI run under load).
  child.stdin.on('error', () => {});
  child.stdin.end(options.input ?? '');
  const timer = setTimeout(() => child.kill('SIGKILL'), options.timeoutMs ?? 120_000);
  return new Promise((resolve, reject) => {
    child.once('error', reject);
    child.once('close', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    });
  });
}

/** Throws with everything the command printed unless it exited 0. */
export async function succeed(command: string, args: string[], options: Parameters<typeof run>[2]): Promise<Ran> {
  const ran = await run(command, args, options);
  if (ran.code !== 0) throw new Error(`${command} ${args.join(' ')} exited ${ran.code}:\n${ran.stdout}\n${ran.stderr}`);
  return ran;
}

export interface Tarball {
  file: string;
  bytes: number;
}

/** `npm pack` of every workspace into `into`; the tarballs with their sizes. */
export async function packAll(into: string): Promise<Tarball[]> {
  mkdirSync(into, { recursive: true });
  await succeed('npm', ['pack', '--workspaces', '--pack-destination', into, '--loglevel=error'], {
    cwd: repoRoot,
    timeoutMs: 300_000,
  });
  return readdirSync(into)
    .filter((f) => f.endsWith('.tgz'))
    .map((f) => ({ file: join(into, f), bytes: statSync(join(into, f)).size }));
}

/** A fresh project in `dir`: the consumer files, the 6-node example, and the tarballs installed with `extra`. */
export async function installConsumer(dir: string, tarballs: Tarball[], extra: string[]): Promise<void> {
  cpSync(join(import.meta.dirname, '..', 'consumer'), dir, { recursive: true });
  cpSync(join(repoRoot, 'examples', 'graphs', 'six-node.json'), join(dir, 'six-node.json'));
  await succeed('npm', ['init', '-y', '--init-type=module'], { cwd: dir });
  await succeed(
    'npm',
    [
      'install',
      '--no-audit',
      '--no-fund',
      '--prefer-offline',
      '--loglevel=error',
      ...tarballs.map((t) => t.file),
      ...extra,
    ],
    { cwd: dir, timeoutMs: 600_000 },
  );
}

export interface Runtime {
  name: string;
  /** The `node` binary. */
  node: string;
  /** An environment whose PATH finds this node first (so `npx` and the bins' `#!/usr/bin/env node` run on it). */
  env: NodeJS.ProcessEnv;
}

function runtime(name: string, node: string): Runtime {
  return { name, node, env: { ...process.env, PATH: `${dirname(node)}:${process.env.PATH}` } };
}

/** This process's Node, and Node `major` from the npm registry's `node@<major>` package (installed once into the cache). */
export async function runtimes(major: number): Promise<{ runtimes: Runtime[]; skipped?: string }> {
  const here = runtime(`${process.versions.node} (this one)`, process.execPath);
  const cache = join(process.env.XDG_CACHE_HOME ?? join(homedir(), '.cache'), 'jes', `node${major}`);
  const node = join(cache, 'node_modules', '.bin', 'node');
  const version = async () => (existsSync(node) ? (await run(node, ['--version'], { cwd: cache })).stdout.trim() : '');
  if (!(await version()).startsWith(`v${major}.`)) {
    mkdirSync(cache, { recursive: true });
    const installed = await run(
      'npm',
      ['install', '--prefix', cache, '--no-save', '--no-audit', '--no-fund', '--loglevel=error', `node@${major}`],
      { cwd: cache, timeoutMs: 300_000 },
    );
    if (installed.code !== 0 || !(await version()).startsWith(`v${major}.`)) {
      const skipped = `Node ${major} could not be installed from the npm registry's node@${major} package: ${installed.stderr.trim().split('\n').at(-1)}`;
      if (process.env.CI) throw new Error(skipped);
      return { runtimes: [here], skipped };
    }
  }
  return { runtimes: [here, runtime(await version(), node)] };
}

export type Serving = ChildServer;

/**
 * Starts a long-running command (`npx jes-server`) in its own process group; resolves with the URL its output
 * names once a line matches `ready`. stop() ends the whole group (npx and the command it runs).
 */
export function serve(
  command: string,
  args: string[],
  { cwd, env, ready }: { cwd: string; env: NodeJS.ProcessEnv; ready: RegExp },
): Promise<Serving> {
  return startChild([command, ...args], { cwd, env, ready, group: true, timeoutMs: 90_000 });
}
