// The runnable parts of client/README.md: the quick start (its ts block) and the command-line walkthrough.
import { spawn, spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import type { Run } from './cli.ts';
import { gsetFile } from './graphs.ts';
import { repoRoot } from './processes.ts';

export const readme = readFileSync(join(repoRoot, 'client/README.md'), 'utf8');

/** The first fenced block of `language` after the line containing `marker`. */
export function blockAfter(marker: string, language: string): string {
  const from = readme.indexOf(marker);
  if (from < 0) throw new Error(`client/README.md has no "${marker}"`);
  const match = new RegExp('```' + language + '\\n([\\s\\S]*?)```').exec(readme.slice(from));
  if (!match) throw new Error(`no ${language} block after "${marker}" in client/README.md`);
  return match[1]!;
}

/** Runs `script` with bash (stopping at the first failing command) at the repository root. */
export function runBash(script: string, env: Record<string, string>): Promise<Run> {
  return new Promise((resolve) => {
    // Node 24 first on PATH, so that npx and the jes bin run on it.
    const path = `${dirname(process.execPath)}:${process.env.PATH ?? ''}`;
    const child = spawn('bash', ['-euo', 'pipefail', '-c', script], { cwd: repoRoot, env: { ...process.env, PATH: path, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.on('close', (code) => resolve({ code: code ?? -1, stdout, stderr }));
  });
}

/**
 * The README's command-line walkthrough as a bash script (with G22's path where Gset is here), or why it
 * cannot run here: it needs bash, jq and Gset's G22.
 */
export function walkthrough(): { script: string; skip?: undefined } | { script?: undefined; skip: string } {
  const g22 = gsetFile('G22.txt');
  if ('skip' in g22) return g22;
  for (const tool of ['bash', 'jq']) if (spawnSync(tool, ['--version']).error) return { skip: `no ${tool} on PATH (apt-get install ${tool})` };
  return { script: blockAfter('tested: cli-walkthrough', 'sh').replace('../shared/data/gset/G22.txt', g22.path) };
}
