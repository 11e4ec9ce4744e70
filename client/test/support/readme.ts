// The runnable parts of client/README.md: the quick start (its ts block) and the command-line walkthrough.
import { spawn, spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import type { Run } from './cli.ts';
import { repoRoot } from './processes.ts';

export const readme = readFileSync(join(repoRoot, 'client/README.md'), 'utf8');

/** The first fenced block of `language` after the line containing `marker` in `document` (a path from the root). */
export function blockAfter(marker: string, language: string, document = 'client/README.md'): string {
  const text = document === 'client/README.md' ? readme : readFileSync(join(repoRoot, document), 'utf8');
  const from = text.indexOf(marker);
  if (from < 0) throw new Error(`${document} has no "${marker}"`);
  const match = new RegExp('```' + language + '\\n([\\s\\S]*?)```').exec(text.slice(from));
  if (!match) throw new Error(`no ${language} block after "${marker}" in ${document}`);
  return match[1]!;
}

/** Runs `script` with bash (stopping at the first failing command) at the repository root. */
export function runBash(script: string, env: Record<string, string>): Promise<Run> {
  return new Promise((resolve) => {
    // Node 24 first on PATH, so that npx and the jes bin run on it.
    const path = `${dirname(process.execPath)}:${process.env.PATH ?? ''}`;
    const child = spawn('bash', ['-euo', 'pipefail', '-c', script], {
      cwd: repoRoot,
      env: { ...process.env, PATH: path, ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.on('close', (code) => resolve({ code: code ?? -1, stdout, stderr }));
  });
}

/**
 * A README's command-line walkthrough as a bash script, exactly as written (both submit
 * examples/graphs/G22.txt, which ships with the repository), or why it cannot run here: it needs bash and jq.
 * By default client/README.md's; the root README's is the block after "tested: root-walkthrough".
 */
export function walkthrough(
  marker = 'tested: cli-walkthrough',
  document = 'client/README.md',
): { script: string; skip?: undefined } | { script?: undefined; skip: string } {
  for (const tool of ['bash', 'jq'])
    if (spawnSync(tool, ['--version']).error) return { skip: `no ${tool} on PATH (apt-get install ${tool})` };
  return { script: blockAfter(marker, 'sh', document) };
}
