// A smoke run of `npm run bench:maxcut` on a few Gset graphs with a short budget, and of its exact-solver
// timing: it must run, exit 0, print its tables and write a CSV whose cuts are real (never above the best
// known, recomputed gaps). No timing is asserted: the benchmark reports figures, it does not test them. It runs the
// sources (--conditions=jes-source), as npm run does: the packages' builds exist only once a test has packed them.
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { gsetDir } from '../../bench/support/gset.ts';
import { root } from '../../bench/support/settings.ts';

const run = promisify(execFile);
const dir = gsetDir();
const gsetPresent = fs.existsSync(dir);
if (!gsetPresent)
  console.warn(
    `bench:maxcut smoke test: skipping the Gset run: ${dir} does not exist (set GSET_DIR to the folder of G*.txt and best-known.tsv).`,
  );

describe('npm run bench:maxcut', () => {
  it.skipIf(!gsetPresent)(
    'runs a Gset subset through the solver pool and writes its runs as CSV',
    async () => {
      const csv = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'jes-bench-')), 'runs.csv');
      const { stdout } = await run(
        process.execPath,
        [
          '--conditions=jes-source',
          'bench/maxcut.ts',
          '--instances',
          'G11,G14,G70',
          '--time',
          '0.3',
          '--seeds',
          '2',
          '--solvers',
          'annealing,local-search',
          '--csv',
          csv,
        ],
        { cwd: root, env: { ...process.env, GSET_DIR: dir } },
      );
      for (const name of ['G11', 'G14', 'G70'])
        expect(stdout).toMatch(new RegExp(`^\\| ${name} \\| annealing \\|`, 'm'));
      expect(stdout).toMatch(/^\| all \| local-search \| 3 \|/m);
      const [header, ...lines] = fs.readFileSync(csv, 'utf8').trimEnd().split('\n');
      expect(header).toBe(
        'instance,solver,seed,nodes,edges,best_known,cut,gap_percent,time_to_best_seconds,time_to_target_seconds,threads,iterations',
      );
      expect(lines).toHaveLength(12);
      for (const line of lines) {
        const [, , , , , bestKnown, cut, gap, , , threads, iterations] = line.split(',').map(Number);
        expect(cut).toBeGreaterThan(0);
        expect(threads).toBeGreaterThanOrEqual(1);
        expect(iterations).toBeGreaterThan(0);
        expect(cut).toBeLessThanOrEqual(bestKnown!);
        expect(gap).toBeCloseTo((100 * (bestKnown! - cut!)) / bestKnown!, 3);
      }
    },
    60_000,
  );

  it('times the exact solver on dense random graphs, each proven optimal', async () => {
    const { stdout } = await run(
      process.execPath,
      ['--conditions=jes-source', 'bench/maxcut.ts', '--exact', '14,18', '--parallel', '1'],
      {
        cwd: root,
      },
    );
    const rows = stdout.split('\n').filter((line) => /^\| 1[48] \|/.test(line));
    expect(rows).toHaveLength(6);
    for (const row of rows) expect(row).toMatch(/\| true \|$/);
  }, 60_000);

  it('refuses an unknown instance with a clear message and a failing exit code', async () => {
    const failed = await run(process.execPath, ['--conditions=jes-source', 'bench/maxcut.ts', '--instances', 'G999'], {
      cwd: root,
      env: { ...process.env, GSET_DIR: dir },
    }).catch((error: { code: number; stderr: string }) => error);
    expect('code' in failed && failed.code).toBe(1);
    expect((failed as { stderr: string }).stderr).toContain(gsetPresent ? 'unknown instance G999' : 'no Gset folder');
  }, 30_000);
});
