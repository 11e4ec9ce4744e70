// client/README.md as a newcomer follows it, against the real reference server: the library's
// quick start is examples/quick-start.ts verbatim and runs; the command-line walkthrough runs as written, and
// so do the root README's two command lines.
// (The same walkthrough against the sandbox is in ../sandbox.test.ts.)
import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { configHome } from '../support/cli.ts';
import { repoRoot, type Servers, users } from '../support/processes.ts';
import { readme, runBash, walkthrough } from '../support/readme.ts';

/** What the line a first server start prints sets (test/docs/getting-started.test.ts runs that start itself). */
const bannerLine = { JES_USERNAME: 'demo', JES_PASSWORD: users.demo };

export function readmeSuite(servers: Servers): void {
  describe('client/README.md', () => {
    it('the quick start is examples/quick-start.ts verbatim, and it finds the maximum cut 53', async () => {
      const example = readFileSync(join(repoRoot, 'client/examples/quick-start.ts'), 'utf8');
      expect(readme).toContain('```ts\n' + example + '```');
      const { stdout } = await promisify(execFile)(
        process.execPath,
        ['--conditions=jes-source', 'client/examples/quick-start.ts'],
        { cwd: repoRoot, env: { ...process.env, JES_BASE_URL: servers.main, ...bannerLine } },
      );
      expect(stdout).toMatch(/^job [A-Z0-9]{12}: FINISHED$/m);
      expect(stdout.trimEnd().split('\n').at(-1)).toBe('maximum cut: 53');
    });

    const walk = walkthrough();
    const skip = walk.skip ? ` (skipped: ${walk.skip})` : '';
    it.skipIf(skip)(
      `the command-line walkthrough logs in, uploads G22 by itself, waits and reads the cut${skip}`,
      async () => {
        const run = await runBash(walk.script!, {
          JES_BASE_URL: servers.main,
          XDG_CONFIG_HOME: configHome(),
          ...bannerLine,
        });
        expect(run.stderr).not.toMatch(/error|problem/i);
        expect(run.code).toBe(0);
        expect(run.stdout).toMatch(/^Logged in to http:\/\/(?:localhost|127\.0\.0\.1):\d+ as demo;/m);
        expect(run.stdout).toMatch(/^maxcut +Maximum cut /m);
        expect(run.stdout).toMatch(/^Input +data file c6ef8fa909e3476442376d9f5a4438dae571505f \(217827 bytes\)$/m);
        expect(run.stdout).toMatch(/^Status +FINISHED$/m);
        const cut = /^Best cut +(\d+)$/m.exec(run.stdout)?.[1];
        expect(Number(cut)).toBeGreaterThan(13_000); // G22's best known cut is 13,359
        expect(run.stdout).toMatch(
          new RegExp(`^Job [A-Z0-9]{12} FINISHED\\n\\nSOLVER +CUT +OPTIMAL[^\\n]*\\n\\S+ +${cut} +no `, 'm'),
        );
      },
    );

    const root = walkthrough('tested: root-walkthrough', 'README.md');
    const rootSkip = root.skip ? ` (skipped: ${root.skip})` : '';
    it.skipIf(rootSkip)(
      `the root README's command lines log in and submit G22 from examples/graphs with --wait${rootSkip}`,
      async () => {
        const run = await runBash(root.script!, {
          JES_BASE_URL: servers.main,
          XDG_CONFIG_HOME: configHome(),
          ...bannerLine,
        });
        expect(run.stderr).not.toMatch(/error|problem/i);
        expect(run.code).toBe(0);
        expect(run.stdout).toMatch(/^Logged in to http:\/\/(?:localhost|127\.0\.0\.1):\d+ as demo;/m);
        expect(run.stdout).toMatch(/^Status +FINISHED$/m);
        expect(Number(/^Best cut +(\d+)$/m.exec(run.stdout)?.[1])).toBeGreaterThan(13_000); // G22's best known cut is 13,359
      },
    );
  });
}
