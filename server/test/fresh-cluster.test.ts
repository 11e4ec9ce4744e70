// A throw-away embedded database starts from the cluster kept in JES_CACHE_DIR (store/fresh-cluster.ts): the first
// start keeps one, later ones load it and serve as well; a copy PGlite cannot load is made again; off keeps none.
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { afterAll, describe, expect, it } from 'vitest';
import { readConfig } from '../src/config/config.ts';
import { schemaDigest } from '../src/store/migrations.ts';
import { Client, sixNodes, startTestServer } from './support/server.ts';

const cacheDir = mkdtempSync(join(tmpdir(), 'jes-cache-'));
afterAll(() => rmSync(cacheDir, { recursive: true, force: true }));

/** A server on a throw-away database with this cache, a job through it, and the server stopped. */
async function serveOneJob(): Promise<void> {
  const server = await startTestServer({ JES_CACHE_DIR: cacheDir });
  try {
    const client = await new Client(server.url).login('alice');
    const job = await client.waitFor(await client.start(sixNodes), 15);
    expect(Object.values<any>(job.executions).map((e) => e.data.cut_value)).toEqual([53]);
  } finally {
    await server.close();
  }
}

const kept = () => readdirSync(cacheDir).filter((name) => name.endsWith('.tar'));

describe('JES_CACHE_DIR', () => {
  it('keeps the cluster a first start initialised and migrated, named by the PGlite version and the schema, and starts the next from it', async () => {
    await serveOneJob();
    const version = JSON.parse(
      readFileSync(join(import.meta.dirname, '../../node_modules/@electric-sql/pglite/package.json'), 'utf8'),
    ).version;
    expect(kept()).toEqual([`pglite-${version}-schema-${schemaDigest}-cluster.tar`]);
    const file = join(cacheDir, kept()[0]!);
    const first = statSync(file);
    // A cluster as the migrations left it, not the first server's data: its tables, but none of its users or jobs.
    const probe = await PGlite.create('memory://', { loadDataDir: new Blob([readFileSync(file)]) });
    try {
      const count = async (table: string) =>
        (await probe.query<{ n: number }>(`SELECT count(*)::int AS n FROM ${table}`)).rows[0]!.n;
      expect(await count('schema_migrations')).toBeGreaterThan(10);
      expect([await count('users'), await count('jobs'), await count('settings')]).toEqual([0, 0, 0]);
    } finally {
      await probe.close();
    }
    await serveOneJob();
    expect(statSync(file).mtimeMs).toBe(first.mtimeMs);
    expect(readdirSync(cacheDir)).toEqual(kept());
  });

  it('makes again a copy PGlite cannot load, and serves meanwhile', async () => {
    const file = join(cacheDir, kept()[0]!);
    writeFileSync(file, 'not a tar file');
    await serveOneJob();
    expect(statSync(file).size).toBeGreaterThan(10 * 1024 * 1024);
  });

  it('defaults to the user cache folder, and off keeps none', () => {
    expect(readConfig({ XDG_CACHE_HOME: '/var/cache/u' }).cacheDir).toBe('/var/cache/u/jes');
    expect(readConfig({ HOME: '/home/u' }).cacheDir).toBe('/home/u/.cache/jes');
    expect(readConfig({ JES_CACHE_DIR: 'off' }).cacheDir).toBeUndefined();
  });

  describe('a folder', () => {
    const folders = mkdtempSync(join(tmpdir(), 'jes-folders-'));
    afterAll(() => rmSync(folders, { recursive: true, force: true }));
    /** The cluster's system identifier (initdb draws a new one; a copy keeps its own) after a job in `dir`. */
    async function identifierIn(dir: string, cache = cacheDir): Promise<string> {
      const server = await startTestServer({ JES_CACHE_DIR: cache, JES_DATA_DIR: dir });
      try {
        const client = await new Client(server.url).login('alice');
        await client.waitFor(await client.start(sixNodes), 15);
        const [row] = await server.db.query<{ id: string }>(
          'SELECT system_identifier::text AS id FROM pg_control_system()',
        );
        return row!.id;
      } finally {
        await server.close();
      }
    }
    const kept = async () => {
      const probe = await PGlite.create('memory://', {
        loadDataDir: new Blob([
          readFileSync(
            join(
              cacheDir,
              readdirSync(cacheDir).find((n) => n.endsWith('.tar'))!,
            ),
          ),
        ]),
      });
      try {
        return (await probe.query<{ id: string }>('SELECT system_identifier::text AS id FROM pg_control_system()'))
          .rows[0]!.id;
      } finally {
        await probe.close();
      }
    };

    it('new (empty, or not there yet) starts from the kept copy, and opens again as it was left', async () => {
      const dir = join(folders, 'new', 'data');
      const id = await identifierIn(dir);
      expect(id).toBe(await kept());
      expect(await identifierIn(dir)).toBe(id);
    });

    it('holding anything else is initialised by PGlite as before, and nothing of it is removed', async () => {
      const dir = join(folders, 'used');
      mkdirSync(dir);
      writeFileSync(join(dir, 'notes.txt'), 'mine');
      expect(await identifierIn(dir)).not.toBe(await kept());
      expect(readFileSync(join(dir, 'notes.txt'), 'utf8')).toBe('mine');
    });

    it('new, with a copy PGlite cannot load, is initialised by PGlite: what the load wrote is cleared first', async () => {
      const broken = mkdtempSync(join(tmpdir(), 'jes-cache-broken-'));
      try {
        // Its last 16 KiB cut off: PGlite writes the files it finds into the folder, PG_VERSION among them (near the
        // end), and fails to start on them; left there, they would be taken for a database at every later start.
        const name = readdirSync(cacheDir).find((n) => n.endsWith('.tar'))!;
        const whole = readFileSync(join(cacheDir, name));
        writeFileSync(join(broken, name), whole.subarray(0, whole.length - 16384));
        const dir = join(folders, 'broken');
        const id = await identifierIn(dir, broken);
        expect(id).not.toBe(await kept());
        expect(await identifierIn(dir, broken)).toBe(id);
      } finally {
        rmSync(broken, { recursive: true, force: true });
      }
    });
  });
});
