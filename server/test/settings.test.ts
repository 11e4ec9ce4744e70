// The settings are listed once (src/config/settings.ts) and held to what reads them and what documents them: config.ts
// reads exactly those variables, each documented default set explicitly reads as leaving it unset, the README's
// Configuration table has the same rows and defaults, and `jes-server --help` prints them all. `jes-server --help`,
// `--version` and `help` once ended in a stack trace (ERR_PARSE_ARGS_UNKNOWN_OPTION) or a usage line.
import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { readConfig } from '../src/config/config.ts';
import { settings } from '../src/config/settings.ts';

const root = join(import.meta.dirname, '../..');
const version = (JSON.parse(readFileSync(join(root, 'server/package.json'), 'utf8')) as { version: string }).version;

describe('the settings', () => {
  it('are the variables config.ts reads, no more and no fewer', () => {
    const source = readFileSync(join(root, 'server/src/config/config.ts'), 'utf8');
    // The system's own variables, read for JES_CACHE_DIR's default (the user's cache folder), are not settings.
    const system = new Set(['HOME', 'XDG_CACHE_HOME']);
    const read = new Set(
      [...source.matchAll(/\benv\.([A-Z_]+)\b/g)].map((m) => m[1]).filter((name) => !system.has(name!)),
    );
    expect([...read].sort()).toEqual(settings.map((s) => s.name).sort());
  });

  it('have defaults that read, set explicitly, as leaving the variable unset', () => {
    const unset = readConfig({});
    for (const setting of settings.filter((s) => s.value !== undefined))
      expect(readConfig({ [setting.name]: setting.value }), setting.name).toEqual(unset);
  });

  it("are the README's Configuration table, row for row, with the same defaults", () => {
    const readme = readFileSync(join(root, 'README.md'), 'utf8');
    const table = readme.slice(readme.indexOf('## Configuration'), readme.indexOf('## Users'));
    const rows = [...table.matchAll(/^\| `([A-Z_]+)` \| ([^|]+) \|/gm)].map((m) => [
      m[1],
      m[2]!.trim().replaceAll('`', ''),
    ]);
    expect(rows).toEqual(settings.map((s) => [s.name, s.shown]));
  });
});

describe('jes-server on the command line', () => {
  const cli = (...args: string[]) =>
    promisify(execFile)(process.execPath, [join(root, 'server/bin/jes-server.js'), ...args], { timeout: 30_000 }).then(
      ({ stdout, stderr }) => ({ code: 0, stdout, stderr }),
      (error: { code: number; stdout: string; stderr: string }) => error,
    );

  it.each([['--help'], ['-h'], ['help']])(
    '%s prints the commands, every setting with its default, and exit codes',
    async (flag) => {
      const { code, stdout, stderr } = await cli(flag);
      expect([code, stderr]).toEqual([0, '']);
      expect(stdout).toMatch(/^Usage: jes-server /);
      for (const command of ['serve', 'worker']) expect(stdout).toMatch(new RegExp(`^  ${command} `, 'm'));
      for (const setting of settings) {
        expect(stdout).toContain(`  ${setting.name} `);
        expect(stdout).toContain(`(default: ${setting.shown})`);
      }
      expect(stdout).toMatch(/^Exit codes: 0 .*, 2 usage\.$/m);
    },
  );

  it.each([['--version'], ['-v']])('%s prints the package version', async (flag) => {
    expect(await cli(flag)).toEqual({ code: 0, stdout: `${version}\n`, stderr: '' });
  });

  it.each([['--bogus'], ['bogus']])('%s is a usage error in two lines, exit 2, no stack trace', async (arg) => {
    const { code, stdout, stderr } = await cli(arg);
    expect([code, stdout]).toEqual([2, '']);
    expect(stderr.trimEnd().split('\n')).toEqual([
      expect.stringMatching(/^error: unknown (option|command) /),
      '(run jes-server --help for usage)',
    ]);
  });
});
