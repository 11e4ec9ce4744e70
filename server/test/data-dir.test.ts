// JES_DATA_DIR names a folder that need not exist yet, parents included (PGlite makes only the last one: a
// missing parent ended start-up with an uncaught ENOENT); one that cannot be made stops start-up in one line.
// One server per folder: a second one is refused in one line naming the first (PGlite aborted with 92 KB of
// its minified code), while a lock left by a killed server, or naming a pid now reused, is taken over.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { ConfigError } from '../src/config/config.ts';
import { lockFileName, processIdentity } from '../src/store/data-dir-lock.ts';
import { openEmbedded } from '../src/store/database.ts';
import { runChild, serveChild } from './support/child-server.ts';

const dir = mkdtempSync(join(tmpdir(), 'jes-data-dir-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const escape = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
const lockOf = (folder: string) => join(folder, lockFileName);
const holderOf = (folder: string): { pid: number } => JSON.parse(readFileSync(lockOf(folder), 'utf8'));

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
    const cli = join(import.meta.dirname, '..', 'src', 'start', 'cli.ts');
    const started = spawnSync(process.execPath, ['--conditions=jes-source', cli], {
      env: { ...process.env, PORT: '0', JES_DATA_DIR: join(dir, 'a-file', 'data'), DATABASE_URL: '' },
      encoding: 'utf8',
      timeout: 30_000,
    });
    expect(started.status).toBe(1);
    expect(started.stderr).toBe(`jes-server: JES_DATA_DIR: cannot create ${join(dir, 'a-file', 'data')} (ENOTDIR)\n`);
  });
});

describe('one server per data folder', () => {
  it('regression: a second server on the folder (on another port) stops with one line naming the first, which goes on serving; SIGTERM releases the folder', async () => {
    const folder = join(dir, 'shared');
    const first = await serveChild({ JES_DATA_DIR: folder, JES_WORKERS: '0' });
    try {
      const second = await runChild({ JES_DATA_DIR: folder, JES_WORKERS: '0' });
      expect(second.code).toBe(1);
      const line = `jes-server: ${escape(folder)} is in use by process ${first.child.pid} \\(started \\d{4}-\\d\\d-\\d\\d \\d\\d:\\d\\d:\\d\\d\\); stop it or set JES_DATA_DIR\\n`;
      expect(second.stderr).toMatch(new RegExp(`^${line}$`));
      expect(second.stdout).toBe('');
      expect((await fetch(`${first.url}/healthz`)).status).toBe(200);
    } finally {
      await first.stop();
    }
    expect(first.child.exitCode).toBe(0);
    expect(existsSync(lockOf(folder))).toBe(false);
  }, 120_000);

  it('the lock of a server killed with SIGKILL is taken over by the next one; SIGINT releases it', async () => {
    const folder = join(dir, 'killed');
    const killed = await serveChild({ JES_DATA_DIR: folder, JES_WORKERS: '0' });
    const gone = new Promise((resolve) => killed.child.once('exit', resolve));
    killed.child.kill('SIGKILL');
    await gone;
    expect(holderOf(folder).pid).toBe(killed.child.pid);

    const next = await serveChild({ JES_DATA_DIR: folder, JES_WORKERS: '0' });
    try {
      expect(holderOf(folder).pid).toBe(next.child.pid);
      expect((await fetch(`${next.url}/healthz`)).status).toBe(200);
      const exited = new Promise<number | null>((resolve) => next.child.once('exit', resolve));
      next.child.kill('SIGINT');
      expect(await exited).toBe(0);
      expect(next.output()).toMatch(/^SIGINT: shutting down$/m);
      expect(existsSync(lockOf(folder))).toBe(false);
    } finally {
      await next.stop();
    }
  }, 120_000);

  it('a lock naming a live process that is not its holder (its pid reused since) is taken over; one naming its holder is refused', async () => {
    const folder = join(dir, 'reused');
    const other = process.ppid; // alive, but it never held this folder: it started at another moment than the lock says
    const made = await openEmbedded(folder);
    await made.close();
    writeFileSync(
      lockOf(folder),
      JSON.stringify({ pid: other, started: '2020-01-01T00:00:00.000Z', identity: 'linux:1' }),
    );
    const db = await openEmbedded(folder);
    await db.close();

    writeFileSync(
      lockOf(folder),
      JSON.stringify({ pid: other, started: '2020-01-01T00:00:00.000Z', identity: processIdentity(other) }),
    );
    const refused = openEmbedded(folder);
    await expect(refused).rejects.toThrow(ConfigError);
    await expect(refused).rejects.toThrow(`${folder} is in use by process ${other} (started `);
  }, 60_000);

  it('in one process too: a folder already open is refused until it is closed', async () => {
    const folder = join(dir, 'twice');
    const db = await openEmbedded(folder);
    await expect(openEmbedded(folder)).rejects.toThrow(`${folder} is in use by process ${process.pid}`);
    await db.close();
    expect(existsSync(lockOf(folder))).toBe(false);
    const again = await openEmbedded(folder);
    await again.close();
  }, 60_000);
});
