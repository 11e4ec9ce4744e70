// Running the `jes` command line as a user does: a child process with its own config dir and environment.
import { type ChildProcess, execFile, spawn } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { repoRoot } from './processes.ts';

export interface Run {
  code: number;
  stdout: string;
  stderr: string;
}

// The command as `npx jes` starts it: the launcher, which in a clone runs the sources with the other @jes packages'
// sources too (main.ts started bare would import @jes/contract's dist/, there only once something has built it).
export const jesBin = join(repoRoot, 'client/bin/jes.js');

/** A fresh, empty XDG_CONFIG_HOME. */
export const configHome = () => mkdtempSync(join(tmpdir(), 'jes-cli-'));

/** Runs `jes args…` with `env` added to a clean environment (no JES_* from the caller's shell). */
export function jes(args: string[], env: Record<string, string>, input?: string): Promise<Run> {
  const base = Object.fromEntries(Object.entries(process.env).filter(([name]) => !name.startsWith('JES_')));
  return new Promise((resolve) => {
    const child = execFile(
      process.execPath,
      [jesBin, ...args],
      { cwd: repoRoot, env: { ...base, ...env }, timeout: 60_000 },
      (error, stdout, stderr) => {
        resolve({ code: error ? (typeof error.code === 'number' ? error.code : -1) : 0, stdout, stderr });
      },
    );
    child.stdin?.end(input ?? '');
  });
}

export interface Running {
  child: ChildProcess;
  /** Resolves to the first match of `pattern` in stderr (so far or to come). */
  stderrMatch(pattern: RegExp): Promise<RegExpExecArray>;
  ended: Promise<Run>;
}

/** Starts `jes args…` as `jes()` does, for a test that acts while it runs (sends it a signal). */
export function startJes(args: string[], env: Record<string, string>): Running {
  const base = Object.fromEntries(Object.entries(process.env).filter(([name]) => !name.startsWith('JES_')));
  const child = spawn(process.execPath, [jesBin, ...args], {
    cwd: repoRoot,
    env: { ...base, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout!.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr!.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const ended = new Promise<Run>((resolve) =>
    child.on('close', (code, signal) => resolve({ code: code ?? (signal ? -1 : 0), stdout, stderr })),
  );
  return {
    child,
    ended,
    stderrMatch: (pattern) =>
      new Promise((resolve, reject) => {
        const look = () => {
          const match = pattern.exec(stderr);
          if (!match) return false;
          child.stderr!.off('data', look);
          resolve(match);
          return true;
        };
        if (look()) return;
        child.stderr!.on('data', look);
        void ended.then((run) =>
          reject(
            new Error(`jes ${args.join(' ')} ended (${run.code}) before stderr matched ${pattern}:\n${run.stderr}`),
          ),
        );
      }),
  };
}
