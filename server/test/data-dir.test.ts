// JES_DATA_DIR names a folder that need not exist yet, parents included (PGlite makes only the last one: a
// missing parent ended start-up with an uncaught ENOENT); one that cannot be made stops start-up in one line.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { openEmbedded } from '../src/store/database.ts';

const dir = mkdtempSync(join(tmpdir(), 'jes-data-dir-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('JES_DATA_DIR', () => {
  it('regression: a path whose parents do not exist yet is made, and the database opens there', async () => {
    const db = await openEmbedded(join(dir, 'not', 'yet', 'here'));
    try {
      expect(await db.query('SELECT 1 AS one')).toEqual([{ one: 1 }]);
    } finally {
      await db.close();
    }
  });

  it('one that cannot be made stops jes-server with one line naming the setting', () => {
    writeFileSync(join(dir, 'a-file'), '');
    const cli = join(import.meta.dirname, '..', 'src', 'cli.ts');
    const started = spawnSync(process.execPath, [cli], { env: { ...process.env, PORT: '0', JES_DATA_DIR: join(dir, 'a-file', 'data'), DATABASE_URL: '' }, encoding: 'utf8', timeout: 30_000 });
    expect(started.status).toBe(1);
    expect(started.stderr).toBe(`jes-server: JES_DATA_DIR: cannot create ${join(dir, 'a-file', 'data')} (ENOTDIR)\n`);
  });
});
