// Running the `jes` command line as a user does: a child process with its own config dir and environment.
import { execFile } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { repoRoot } from './processes.ts';

export interface Run {
  code: number;
  stdout: string;
  stderr: string;
}

export const jesBin = join(repoRoot, 'client/src/cli/main.ts');

/** A fresh, empty XDG_CONFIG_HOME. */
export const configHome = () => mkdtempSync(join(tmpdir(), 'jes-cli-'));

/** Runs `jes args…` with `env` added to a clean environment (no JES_* from the caller's shell). */
export function jes(args: string[], env: Record<string, string>, input?: string): Promise<Run> {
  const base = Object.fromEntries(Object.entries(process.env).filter(([name]) => !name.startsWith('JES_')));
  return new Promise((resolve) => {
    const child = execFile(process.execPath, [jesBin, ...args], { cwd: repoRoot, env: { ...base, ...env }, timeout: 60_000 }, (error, stdout, stderr) => {
      resolve({ code: error ? (typeof error.code === 'number' ? error.code : -1) : 0, stdout, stderr });
    });
    child.stdin?.end(input ?? '');
  });
}
