// A throw-away embedded database (`memory:`), and one in a new folder, starts from a copy of a cluster PGlite has just
// initialised and the migrations have just given the schema, kept in the cache folder (JES_CACHE_DIR), instead of
// running PGlite's initdb and the migrations at every start: in memory 1.9 s of CPU per start fell to 0.4 s (the test
// suite starts hundreds), in a folder 5-11 s to 2. The copy is made by the first start that finds none, one file per
// PGlite version and schema, written whole or not at all; one PGlite cannot load is made again.
import { mkdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { PGlite } from '@electric-sql/pglite';
import { schemaDigest } from './migrations.ts';

/** PGlite's version, read once: a copy made by another version is never loaded. */
let pgliteVersion: string | undefined;
async function versionOfPglite(): Promise<string> {
  pgliteVersion ??= (
    JSON.parse(
      await readFile(fileURLToPath(new URL('../package.json', import.meta.resolve('@electric-sql/pglite'))), 'utf8'),
    ) as { version: string }
  ).version;
  return pgliteVersion;
}

/**
 * The kept copy as PGlite reads it (Blob.arrayBuffer(), once): the file's bytes as they are. A Blob made of them was a
 * copy, which Node's arrayBuffer() then read back in chunks and joined into a third: 0.3 to 0.4 s of a core per start
 * for the 40 MB of a cluster, a third of an in-memory server's start. Read any other way (stream(), text()) it is empty:
 * a PGlite that did so would fail to load it and initialise a cluster instead, as for a copy it cannot load.
 */
class BytesBlob extends Blob {
  readonly #bytes: Uint8Array<ArrayBuffer>;
  constructor(bytes: Uint8Array<ArrayBuffer>) {
    super();
    this.#bytes = bytes;
  }
  override get size(): number {
    return this.#bytes.byteLength;
  }
  override arrayBuffer(): Promise<ArrayBuffer> {
    const bytes = this.#bytes;
    const whole = bytes.byteOffset === 0 && bytes.byteLength === bytes.buffer.byteLength;
    return Promise.resolve(whole ? bytes.buffer : bytes.slice().buffer);
  }
}

export interface FreshCluster {
  /** The kept copy, when there is one: what PGlite.create loads (its loadDataDir). */
  image: Blob | undefined;
  /**
   * Keeps `db`'s cluster, as initdb and the migrations left it, for the next starts. Never throws: a cache is not worth
   * a start.
   */
  keep(db: PGlite): Promise<void>;
}

export async function freshCluster(cacheDir: string): Promise<FreshCluster> {
  const file = join(cacheDir, `pglite-${await versionOfPglite()}-schema-${schemaDigest}-cluster.tar`);
  const image = await readFile(file).then(
    (bytes) => new BytesBlob(bytes),
    () => undefined,
  );
  return {
    image,
    async keep(db) {
      const partial = `${file}.${process.pid}.partial`;
      try {
        const dump = await db.dumpDataDir('none');
        await mkdir(cacheDir, { recursive: true, mode: 0o700 });
        await writeFile(partial, Buffer.from(await dump.arrayBuffer()), { mode: 0o600 });
        await rename(partial, file);
      } catch {
        await rm(partial, { force: true }).catch(() => {});
      }
    },
  };
}
