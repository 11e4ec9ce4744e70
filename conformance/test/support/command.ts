// The jes-conformance command as a child process, as a user runs it: its exit code, stdout and stderr.
import { spawn } from 'node:child_process';
import { join } from 'node:path';

export const cli = join(import.meta.dirname, '../../src/cli.ts');

export interface Ran {
  code: number;
  stdout: string;
  stderr: string;
}

export function conformance(args: string[], env: Record<string, string> = {}): Promise<Ran> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, ['--conditions=jes-source', cli, ...args], {
      env: { ...process.env, ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.on('close', (code) => resolve({ code: code ?? -1, stdout, stderr }));
  });
}
