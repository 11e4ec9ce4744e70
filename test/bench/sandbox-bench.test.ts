// A smoke run of `npm run bench:sandbox`'s memory half with a few hundred starts: it must run, exit 0 and print its
// table, every start answered 200, and the jobs the sandbox's listings show matching the starts (all FINISHED at the
// benchmark's --speed, fewer than the caps). No figure of speed or memory is asserted: the benchmark reports them.
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { root } from '../../bench/support/settings.ts';

const run = promisify(execFile);

describe('npm run bench:sandbox', () => {
  it('starts jobs on the stateful sandbox and reads its memory and listings at each checkpoint', async () => {
    const { stdout } = await run(
      process.execPath,
      ['--conditions=jes-source', 'bench/sandbox.ts', '--memory-only', '--starts', '300'],
      { cwd: root },
    );
    const rows = stdout.split('\n').filter((line) => /^\| [\d,]+ \|/.test(line));
    expect(rows.map((row) => row.split('|')[1]!.trim())).toEqual(['0', '30', '75', '150', '225', '300']);
    const last = rows
      .at(-1)!
      .split('|')
      .map((cell) => cell.trim());
    // Job starts | starts/s | RSS | heap used | heap size | live heap | jobs held | by status | answers | load avg
    expect(Number(last[3])).toBeGreaterThan(0);
    expect(Number(last[6])).toBeGreaterThan(0);
    expect(last.slice(7, 10)).toEqual(['300', 'FINISHED 300', '200: 300']);
  }, 120_000);
});
