// A throw-away embedded database starts from the cluster kept in JES_CACHE_DIR (store/fresh-cluster.ts): the first
// start keeps one, later ones load it and serve as well; a copy PGlite cannot load is made again; off keeps none.
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { afterAll, describe, expect, it } from 'vitest';
import { readConfig } from '../src/config/config.ts';
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
  it('keeps the cluster a first start initialised, named by the PGlite version, and starts the next from it', async () => {
    await serveOneJob();
    const version = JSON.parse(
      readFileSync(join(import.meta.dirname, '../../node_modules/@electric-sql/pglite/package.json'), 'utf8'),
    ).version;
    expect(kept()).toEqual([`pglite-${version}-cluster.tar`]);
    const file = join(cacheDir, kept()[0]!);
    const first = statSync(file);
    // A cluster as initdb left it, not the first server's data: none of its tables, users or jobs went into it.
    const probe = await PGlite.create('memory://', { loadDataDir: new Blob([readFileSync(file)]) });
    try {
      expect((await probe.query(`SELECT to_regclass('public.users') AS users`)).rows).toEqual([{ users: null }]);
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
});
