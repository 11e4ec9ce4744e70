// A server in a child process, for the tests and benchmarks of every package: jes-server, the sandbox, a benchmark's
// bare app, a package's bin through npx. The caller sees the process exit instead of dying with it, reads what it
// printed, and stops it with SIGTERM (SIGKILL after a grace) or kills it outright. One module, so that a fix to the
// waiting, the output or the stopping (a URL cut in half by a chunk boundary, a child left running) is made once.
import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { stripVTControlCharacters } from 'node:util';

export const repoRoot = join(import.meta.dirname, '..', '..');
/** `jes-server` and `jes-sandbox` from this clone's TypeScript sources. */
export const serverCli = join(repoRoot, 'server/src/start/cli.ts');
export const sandboxCli = join(repoRoot, 'sandbox/src/cli.ts');

/** `node` with `args` (a script and its arguments), resolving @jes packages to their sources as vitest does. */
export const node = (...args: string[]): string[] => [process.execPath, '--conditions=jes-source', ...args];

let terminalMissing: string | undefined;
/** Why a test on a terminal cannot run here ('' when util-linux's `script` is there to give one). */
export function noTerminal(): string {
  terminalMissing ??=
    spawnSync('script', ['-qec', 'true', '/dev/null']).status === 0
      ? ''
      : ' (skipped: no `script` command for a terminal)';
  return terminalMissing;
}

/** The variables the server and the sandbox take their settings from: a child gets only those it is given. */
const setting = /^(JES_|SANDBOX_)|^(DATABASE_URL|HOST|PORT|LOG_LEVEL)$/;

/**
 * This process's environment without the server's and the sandbox's settings (a DATABASE_URL or JES_WORKERS of the
 * shell that runs the tests would move the child elsewhere), then `env`.
 */
function childEnv(env: NodeJS.ProcessEnv = {}): NodeJS.ProcessEnv {
  return { ...Object.fromEntries(Object.entries(process.env).filter(([name]) => !setting.test(name))), ...env };
}

/** A port nothing listens on (just now). */
export async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  return port;
}

export interface ChildServer {
  child: ChildProcess;
  /** The first group of `ready` (the URL it listens on); '' when `ready` has none. */
  url: string;
  /** The whole match of `ready`. */
  ready: RegExpExecArray;
  /** stdout and stderr as they came (past 8 MiB, its first MiB and its last 4). */
  output(): string;
  /** Waits until its output, colours taken out, matches `pattern` (within 10 s); returns the match. */
  printed(pattern: RegExp): Promise<RegExpExecArray>;
  /** Whether it is still running. */
  alive(): boolean;
  /** Why it ended, if it did: `exit code 1`, `signal SIGSEGV`. */
  exited(): string | undefined;
  /** Whether something else ended it (SIGTERM or SIGINT from outside, not stop() or kill()): not a crash. */
  stoppedFromOutside(): boolean;
  /** SIGTERM, then SIGKILL if it has not exited after the grace; resolves once it has exited. */
  stop(): Promise<void>;
  /** Sends `signal` (SIGKILL unless told) and resolves once it has exited. */
  kill(signal?: NodeJS.Signals): Promise<void>;
}

export interface StartOptions {
  /** Settings on top of childEnv()'s environment. */
  env?: NodeJS.ProcessEnv;
  /** The repository's root unless told. */
  cwd?: string;
  /** What it prints once ready, tried on whole lines of stdout and stderr; its first group, if any, is the URL. */
  ready?: RegExp;
  /** Names it in errors (the command unless told). */
  what?: string;
  /** stdout and stderr a terminal (util-linux's `script`), as under `npm start`; implies `group`. */
  terminal?: boolean;
  /** In a process group of its own, which stop() and kill() end whole (npx, npm or bash and what they run). */
  group?: boolean;
  /** How long it may take to be ready. */
  timeoutMs?: number;
  /** How long stop() waits after SIGTERM before SIGKILL. */
  graceMs?: number;
}

/** The children started here that still run, by what stops them: none outlives this process. */
const running = new Map<ChildProcess, { stop(): Promise<void>; signal(name: NodeJS.Signals): void }>();
process.on('exit', () => {
  for (const { signal } of running.values()) signal('SIGKILL');
});

/** Stops every child started here that still runs (a benchmark's last word, or its Ctrl-C). */
export async function stopAll(): Promise<void> {
  await Promise.all([...running.values()].map(({ stop }) => stop()));
}

const quoted = (arg: string) => `'${arg.replaceAll("'", `'\\''`)}'`;

/** Starts `command` (program first: `node(serverCli)`, `['npx', 'jes-server']`); resolves once it prints `ready`. */
export function startChild(command: string[], options: StartOptions = {}): Promise<ChildServer> {
  const {
    env,
    cwd = repoRoot,
    ready = /listening on (http:\/\/\S+)/,
    what = command.join(' '),
    terminal = false,
    timeoutMs = 60_000,
    graceMs = 10_000,
  } = options;
  const group = terminal || (options.group ?? false);
  const [program, ...args] = terminal
    ? ['script', '-qefc', command.map(quoted).join(' '), '/dev/null']
    : (command as [string, ...string[]]);
  const child = spawn(program, args, {
    cwd,
    env: childEnv(env),
    // `script` copies its stdin to the terminal: an ignored one would end it.
    stdio: [terminal ? 'pipe' : 'ignore', 'pipe', 'pipe'],
    detached: group,
  });
  let output = '';
  const append = (chunk: Buffer) => {
    // Every line (they explain failures), within bounds for a process that floods its output.
    output += chunk.toString();
    if (output.length > 8 * 2 ** 20) output = `${output.slice(0, 2 ** 20)}\n… (cut) …\n${output.slice(-4 * 2 ** 20)}`;
  };
  child.stdout!.on('data', append);
  child.stderr!.on('data', append);

  let ended: string | undefined;
  let stopping = false;
  const alive = () => child.exitCode === null && child.signalCode === null;
  const gone = new Promise<void>((resolve) =>
    child.once('exit', (code, name) => {
      running.delete(child);
      ended = name ? `signal ${name}` : `exit code ${code}`;
      resolve();
    }),
  );
  const signal = (name: NodeJS.Signals) => {
    try {
      if (group) process.kill(-child.pid!, name);
      else child.kill(name);
    } catch {} // gone already
  };
  const stop = async () => {
    stopping = true;
    if (!alive()) return;
    signal('SIGTERM');
    const killer = setTimeout(() => signal('SIGKILL'), graceMs);
    await gone;
    clearTimeout(killer);
  };
  const kill = async (name: NodeJS.Signals = 'SIGKILL') => {
    stopping = true;
    if (alive()) signal(name);
    await gone;
  };
  running.set(child, { stop, signal });

  return new Promise((resolve, reject) => {
    const fail = (why: string) => {
      clearTimeout(timer);
      signal('SIGKILL');
      reject(new Error(`${what} ${why}; its output:\n${output}`));
    };
    const timer = setTimeout(() => fail(`was not ready within ${timeoutMs / 1000} s`), timeoutMs);
    const early = (code: number | null, name: string | null) => fail(`exited (${name ?? code}) before it was ready`);
    const check = () => {
      // Whole lines only: a URL split across two chunks would otherwise be read cut short.
      const match = ready.exec(output.slice(0, output.lastIndexOf('\n') + 1));
      if (!match) return;
      clearTimeout(timer);
      child.off('exit', early);
      child.stdout!.off('data', check);
      child.stderr!.off('data', check);
      resolve({
        child,
        url: match[1] ?? '',
        ready: match,
        output: () => output,
        async printed(pattern) {
          for (let i = 0; i < 200; i++) {
            const found = pattern.exec(stripVTControlCharacters(output));
            if (found) return found;
            await new Promise((r) => setTimeout(r, 50));
          }
          throw new Error(`${what} never printed ${pattern}:\n${output}`);
        },
        alive,
        exited: () => ended,
        stoppedFromOutside: () =>
          !stopping &&
          ended !== undefined &&
          (/SIG(TERM|INT)$/.test(ended) ||
            (ended === 'exit code 0' && /^SIG(TERM|INT): shutting down$/m.test(output.slice(-4096)))),
        stop,
        kill,
      });
    };
    child.stdout!.on('data', check);
    child.stderr!.on('data', check);
    child.once('exit', early);
  });
}

export interface Ran {
  code: number | null;
  stdout: string;
  stderr: string;
}

/**
 * Runs `command` to its end (one that should refuse to start; SIGKILL after `timeoutMs`), `input` on its stdin;
 * what it printed.
 */
export function runChild(
  command: string[],
  {
    env,
    cwd = repoRoot,
    timeoutMs = 60_000,
    input,
  }: Pick<StartOptions, 'env' | 'cwd' | 'timeoutMs'> & { input?: string } = {},
): Promise<Ran> {
  const [program, ...args] = command as [string, ...string[]];
  const stdin = input === undefined ? 'ignore' : 'pipe';
  const child = spawn(program, args, { cwd, env: childEnv(env), stdio: [stdin, 'pipe', 'pipe'] });
  child.stdin?.end(input);
  let stdout = '';
  let stderr = '';
  child.stdout!.on('data', (data: Buffer) => (stdout += data.toString()));
  child.stderr!.on('data', (data: Buffer) => (stderr += data.toString()));
  const timer = setTimeout(() => child.kill('SIGKILL'), timeoutMs);
  return new Promise((resolve) =>
    child.once('close', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    }),
  );
}
