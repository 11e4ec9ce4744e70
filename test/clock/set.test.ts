// The clock set cannot silently shrink or miss a file: every test file that reads a clock or names an instant is
// in it or says why not (test/clock/set.ts), every file named exists, and the set's files are ones vitest runs.
import { readdirSync, readFileSync, existsSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { clockFree, clockReadings, clockSet } from './set.ts';

const root = join(import.meta.dirname, '../..');
const testFolders = ['test', 'contract/test', 'server/test', 'client/test', 'conformance/test', 'sandbox/test'];

function typescriptFiles(folder: string): string[] {
  return readdirSync(join(root, folder), { recursive: true, encoding: 'utf8' })
    .filter((name) => name.endsWith('.ts') && !name.split('/').includes('node_modules'))
    .map((name) => relative(root, join(root, folder, name)));
}

/** The files that read a clock or name an instant; the set's own folder (which names the patterns) aside. */
const readers = testFolders
  .flatMap(typescriptFiles)
  .filter((file) => !file.startsWith('test/clock/'))
  .filter((file) => clockReadings.some((pattern) => pattern.test(readFileSync(join(root, file), 'utf8'))))
  .sort();

describe('the clock set', () => {
  it('names every test file that reads a clock or names an instant, in the set or with a reason why not', () => {
    const unnamed = readers.filter((file) => !(file in clockSet) && !(file in clockFree));
    expect(unnamed, 'add each to clockSet (run again under faketime) or to clockFree with a reason').toEqual([]);
  });

  it('names files that exist, each once, and keeps no reason for a file that no longer reads a clock', () => {
    const named = [...Object.keys(clockSet), ...Object.keys(clockFree)];
    expect(named.filter((file) => !existsSync(join(root, file)))).toEqual([]);
    expect(Object.keys(clockSet).filter((file) => file in clockFree)).toEqual([]);
    expect(Object.keys(clockFree).filter((file) => !readers.includes(file))).toEqual([]);
  });

  it('holds only test files that vitest runs', () => {
    const runnable = (file: string) =>
      file.endsWith('.test.ts') &&
      (file.startsWith('test/') || /^(contract|server|client|conformance|sandbox)\/test\//.test(file));
    expect(Object.keys(clockSet).filter((file) => !runnable(file))).toEqual([]);
  });

  it('finds the readings it is meant to find', () => {
    const reads = (text: string) => clockReadings.some((pattern) => pattern.test(text));
    for (const text of [
      "const at = Date.parse('2026-11-24T23:30:00.123Z');",
      'new Date(at)',
      "vi.useFakeTimers({ toFake: ['Date'] })",
      "'12/31/2026, 23:59:50'",
      "UPDATE jobs SET ended_at = now() - interval '1 day'",
      'issuer({ now: () => clock.now })',
    ])
      expect(reads(text), text).toBe(true);
    for (const text of ['performance.now()', 'const nowhere = 1;', 'version 1.6.0'])
      expect(reads(text), text).toBe(false);
  });
});
