// Space comes back on the embedded database (issue 10): it has no autovacuum, and each refused upload used to
// grow the data directory by its size for good (a few hundred refused 100 MiB uploads filled the disk). After
// many large uploads refused, the directory stays within a bound of a couple of uploads.
import { randomBytes } from 'node:crypto';
import { mkdtemp, readdir, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, expect, it } from 'vitest';
import type { Running } from '../src/main.ts';
import { expectProblem } from './support/problems.ts';
import { Client, startTestServer } from './support/server.ts';

let server: Running | undefined;
let dir: string;
afterAll(async () => {
  await server?.close();
  await rm(dir, { recursive: true, force: true });
});

async function bytesUnder(path: string): Promise<number> {
  let total = 0;
  for (const entry of await readdir(path, { withFileTypes: true, recursive: true })) {
    if (entry.isFile()) total += (await stat(join(entry.parentPath, entry.name))).size;
  }
  return total;
}

const mib = 1024 * 1024;

/** A form whose file is `bytes` long; without problem_id the contract refuses it once the file is stored. */
function refusedUpload(bytes: number): FormData {
  const form = new FormData();
  // Random bytes: the database compresses anything more regular, and would hide the growth.
  form.set('file', new Blob([randomBytes(bytes)]), 'big.txt');
  form.set('name', 'big.txt');
  return form;
}

const refuse = async (alice: Client, count: number) => {
  for (let i = 0; i < count; i++)
    expectProblem(await alice.request('POST', '/data_file', { body: refusedUpload(8 * mib) }), 400, 'invalid_request');
  // The last refusal's space is reclaimed in the background once it is answered.
  await new Promise((r) => setTimeout(r, 1000));
};

// A refusal for size (413) takes the same way out as this one (the stored chunks are discarded when the answer
// ends); a smaller file keeps the test short, as the embedded database stores about 7 MiB/s.
it('stops growing however many 8 MiB uploads it refuses (it grew by each for good)', async () => {
  dir = await mkdtemp(join(tmpdir(), 'jes-space-'));
  server = await startTestServer({ JES_DATA_DIR: dir, JES_WORKERS: '0' });
  const alice = await new Client(server.url).login('alice');
  const before = await bytesUnder(dir);
  await refuse(alice, 4);
  const afterFour = await bytesUnder(dir);
  await refuse(alice, 8);
  const afterTwelve = await bytesUnder(dir);
  console.log(
    `data directory: ${(before / mib).toFixed(1)} MiB, then ${(afterFour / mib).toFixed(1)} MiB after refusing 4 uploads of 8 MiB, ${(afterTwelve / mib).toFixed(1)} MiB after 12`,
  );
  // The write-ahead log keeps a few segments for reuse: a bound, not a growth per refusal.
  expect(afterTwelve - afterFour).toBeLessThan(8 * mib);
  expect(afterTwelve - before).toBeLessThan(4 * 8 * mib);
});
