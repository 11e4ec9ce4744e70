// Space comes back on the embedded database (issue 10): it has no autovacuum, and each refused upload used to
// grow the data directory by its size for good (a few hundred refused 100 MiB uploads filled the disk). After
// many large uploads refused, the directory stays within a bound of a couple of uploads.
import { randomBytes } from 'node:crypto';
import { mkdtemp, readdir, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, expect, it } from 'vitest';
import type { Running } from '../src/start/main.ts';
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

/** A valid edge list of about `bytes`, with random weights (compressed, a regular file would hide the growth). */
function edgeList(bytes: number, seed: number): string {
  const n = 100_000; // edges all distinct: repeated ones would be summed into a small prepared input
  const lines: string[] = [];
  let size = 0;
  for (let k = 0; size < bytes; k++) {
    const i = (k % n) + 1;
    const j = ((k * 7919 + Math.floor(k / n) * 104_729 + seed) % n) + 1;
    if (i === j) continue;
    const line = `${i} ${j} ${(Math.random() * 1000).toFixed(6)}\n`;
    lines.push(line);
    size += line.length;
  }
  return `${n} ${lines.length}\n${lines.join('')}`;
}

/** Waits until the directory's size has not changed for half a second (the space is reclaimed in the background). */
async function settled(path: string): Promise<number> {
  let last = -1;
  for (;;) {
    const now = await bytesUnder(path);
    if (now === last) return now;
    last = now;
    await new Promise((r) => setTimeout(r, 500));
  }
}

// Six uploads and deletions of a 79 MB file grew the directory from 39 to 565 MiB with no file left (issue 28): the
// prepared input of a READY file (data_file_prepared) was never vacuumed once deleted.
it('stops growing however many READY files it is given and has deleted (their prepared input too)', async () => {
  const folder = await mkdtemp(join(tmpdir(), 'jes-space-'));
  const serving = await startTestServer({ JES_DATA_DIR: folder, JES_WORKERS: '1' });
  try {
    const alice = await new Client(serving.url).login('alice');
    const cycle = async (seed: number) => {
      const uploaded = await alice.upload(edgeList(12 * mib, seed), `g${seed}.txt`);
      const id = uploaded.body.data_file_identifier;
      expect((await alice.validated(id)).status).toBe('READY');
      expect((await alice.request('DELETE', `/data_file/${id}`)).status).toBe(204);
    };
    for (let seed = 1; seed <= 2; seed++) await cycle(seed);
    const afterTwo = await settled(folder);
    for (let seed = 3; seed <= 7; seed++) await cycle(seed);
    const afterSeven = await settled(folder);
    console.log(
      `data directory: ${(afterTwo / mib).toFixed(1)} MiB after 2 uploads and deletions of 12 MiB, ${(afterSeven / mib).toFixed(1)} MiB after 7`,
    );
    // Each cycle stores 12 MiB as uploaded and some 14 MiB as prepared: five more grew it by about 51 MiB. The
    // write-ahead log may keep a segment (16 MiB) more for reuse: a bound, not a growth per cycle.
    expect(afterSeven - afterTwo).toBeLessThan(24 * mib);
  } finally {
    await serving.close();
    await rm(folder, { recursive: true, force: true });
  }
}, 120_000);
