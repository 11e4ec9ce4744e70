// The jes-conformance command as a child process, as a user runs it: its exit code, stdout and stderr.
import { spawn } from 'node:child_process';
import { join } from 'node:path';

/** Its bin, as a user runs it: the launcher's Node check and closed-pipe exits (scripts/launch.js), then src/cli.ts. */
export const cli = join(import.meta.dirname, '../../bin/jes-conformance.js');

export interface Ran {
  code: number;
  stdout: string;
  stderr: string;
}

/**
 * Runs the command with `env` over this process's environment, GitHub Actions' own variables left out unless `env`
 * gives them: under GitHub Actions the command would annotate and write to the job's summary.
 */
export function conformance(args: string[], env: Record<string, string> = {}, cwd?: string): Promise<Ran> {
  return new Promise((resolve) => {
    const { GITHUB_ACTIONS: _, GITHUB_STEP_SUMMARY: __, ...inherited } = process.env;
    const child = spawn(process.execPath, [cli, ...args], {
      env: { ...inherited, ...env },
      ...(cwd ? { cwd } : {}),
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.on('close', (code) => resolve({ code: code ?? -1, stdout, stderr }));
  });
}
