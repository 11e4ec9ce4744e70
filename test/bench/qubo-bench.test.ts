// A smoke run of `npm run bench:qubo`: a Gset graph as a QUBO, random matrices against the minimum the exact solver
// proves, and a larger matrix across seeds. It must run, exit 0 and print its three tables with real figures (an
// energy never below the proven minimum or the best-known one). No timing is asserted.
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import { promisify } from 'node:util';
import { expect, it } from 'vitest';
import { gsetDir } from '../../bench/support/gset.ts';
import { root } from '../../bench/support/settings.ts';

const run = promisify(execFile);
const dir = gsetDir();
const gsetPresent = fs.existsSync(dir);

it.skipIf(!gsetPresent)(
  'npm run bench:qubo prints a Gset QUBO, random QUBOs against exact, and a larger one across seeds',
  async () => {
    const { stdout } = await run(
      process.execPath,
      [
        '--conditions=jes-source',
        'bench/qubo.ts',
        '--instances',
        'G11',
        '--exact',
        '12,14',
        '--sizes',
        '60',
        '--time',
        '0.2',
        '--seeds',
        '2',
      ],
      { cwd: root, env: { ...process.env, GSET_DIR: dir } },
    );
    const row = (pattern: RegExp) =>
      stdout
        .split('\n')
        .find((line) => pattern.test(line))
        ?.split('|')
        .map((c) => c.trim());
    const g11 = row(/^\| G11 \| annealing \|/)!;
    expect(Number(g11[4])).toBe(-564); // the best-known energy: minus G11's best-known cut
    expect(Number(g11[5])).toBeGreaterThanOrEqual(-564);
    for (const n of ['12', '14']) {
      const cells = row(new RegExp(`^\\| ${n} \\| annealing \\| -\\d+ \\| yes \\|`))!;
      const [minimum, best, worst] = [cells[3], cells[6], cells[7]].map(Number);
      expect(best).toBeGreaterThanOrEqual(minimum!);
      expect(worst).toBeGreaterThanOrEqual(best!);
    }
    expect(row(/^\| 60 \| annealing \| 2 \|/)).toBeDefined();
  },
  60_000,
);
