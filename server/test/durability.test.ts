// The embedded server keeps every job, data file, user and its signing key across a restart.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, expect, it } from 'vitest';
import { Client, sixNodes, sixNodesEdgeList, startTestServer } from './support/server.ts';

const dirs: string[] = [];
afterAll(async () => Promise.all(dirs.map((d) => rm(d, { recursive: true, force: true }))));

it('restarting on the same data directory keeps jobs, data files and tokens', async () => {
  const dir = await mkdtemp(join(tmpdir(), 'jes-durability-'));
  dirs.push(dir);
  // No JES_JWT_SECRET: the generated key must be stored, or old tokens would die with the process.
  const env = { JES_DATA_DIR: dir, JES_JWT_SECRET: '' };
  const first = await startTestServer(env);
  const alice = await new Client(first.url).login('alice');
  const id = await alice.start(sixNodes);
  const finished = await alice.waitFor(id);
  const file = (await alice.upload(sixNodesEdgeList, 'six.txt')).body.data_file_identifier;
  await alice.validated(file);
  await first.close();

  const second = await startTestServer(env);
  try {
    const again = new Client(second.url);
    again.token = alice.token;
    const job = (await again.get(`/job/${id}`)).body.job[id];
    expect(job).toEqual(finished);
    expect((await again.get(`/data_file/${file}`)).body.data_file[file].status).toBe('READY');
    const fromFile = await again.waitFor(await again.start({ data_file_identifier: file }));
    expect(fromFile.executions.exact.data.cut_value).toBe(53);
  } finally {
    await second.close();
  }
});
