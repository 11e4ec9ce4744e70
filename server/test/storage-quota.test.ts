// What a user's data files may hold (issue 27): 20 parallel uploads of 20 MiB were all accepted (the data folder
// went from 40 to 888 MiB), and INVALID files kept their bytes for 30 days. Now a quota per user
// (JES_STORAGE_QUOTA_MIB) refuses an upload past it with 413 storage_quota_exceeded saying what is used and allowed,
// uploads at once cannot both fit, and an INVALID file's bytes are dropped at its verdict. The same bytes uploaded
// for another use case answered 200 with the first use case's record; now 422 data_file_problem_mismatch. On the
// embedded database and PostgreSQL.
import { describe, expect, it } from 'vitest';
import { expectProblem } from './support/problems.ts';
import { backends, Client, type Reply } from './support/server.ts';
import { sharedServer } from './support/shared-server.ts';

const mib = 1024 * 1024;

/** A valid edge list of about `size` bytes (distinct per `seed`). */
function edgeList(size: number, seed: number): string {
  const line = `1 2 ${seed}\n`;
  const count = Math.floor(size / line.length);
  return `2 ${count}\n${line.repeat(count)}`;
}

describe.each(await backends())('on %s', (_name, backend) => {
  const jes = sharedServer({ JES_STORAGE_QUOTA_MIB: '3' }, { users: ['alice', 'bob'], backend });

  const upload = (client: Client, text: string, problemId = 'maxcut'): Promise<Reply> =>
    client.upload(text, 'file.txt', problemId);

  it('refuses an upload past the quota with 413 storage_quota_exceeded, saying what is used and allowed', async () => {
    const first = await upload(jes.alice, edgeList(2 * mib, 1));
    expect(first.status).toBe(201);
    const over = await upload(jes.alice, edgeList(1.5 * mib, 2));
    expectProblem(over, 413, 'storage_quota_exceeded');
    expect(over.body).toMatchObject({
      max_bytes: 3 * mib,
      used_bytes: first.body.data_file[first.body.data_file_identifier].bytes,
    });
    // Another user's quota is their own; the same bytes again take no more room, even with the quota nearly used.
    expect((await upload(jes.bob, edgeList(2 * mib, 1))).status).toBe(201);
    expect((await upload(jes.alice, edgeList(2 * mib, 1))).status).toBe(200);
    // Deleted, the room is back.
    expect((await jes.alice.request('DELETE', `/data_file/${first.body.data_file_identifier}`)).status).toBe(204);
    expect((await upload(jes.alice, edgeList(1.5 * mib, 2))).status).toBe(201);
  });

  it('lets no two uploads at once both fit past the quota', async () => {
    const carol = jes.bob; // jes.bob holds 2 MiB of his 3: of five uploads of 0.8 MiB at once, one fits
    const answers = await Promise.all([3, 4, 5, 6, 7].map((seed) => upload(carol, edgeList(0.8 * mib, seed))));
    const statuses = answers.map((a) => a.status).sort();
    expect(statuses.filter((s) => s === 201)).toHaveLength(1);
    expect(statuses.filter((s) => s === 413)).toHaveLength(4);
    const { ids } = (await carol.get('/data_file?limit=100')).body as { ids: string[] };
    let held = 0;
    for (const id of ids) held += (await carol.get(`/data_file/${id}`)).body.data_file[id].bytes;
    expect(held).toBeLessThanOrEqual(3 * mib);
  });

  it("drops an INVALID file's bytes at its verdict: they no longer count, and its job's input is a 404", async () => {
    await Promise.all(
      ((await jes.alice.get('/data_file?limit=100')).body.ids as string[]).map((id) =>
        jes.alice.request('DELETE', `/data_file/${id}`),
      ),
    );
    const bad = await upload(jes.alice, `not an edge list\n${'x'.repeat(2.5 * mib)}\n`);
    expect(bad.status).toBe(201);
    const id = bad.body.data_file_identifier;
    const job = await jes.alice.post('/problem/maxcut', { data_file_identifier: id });
    const record = await jes.alice.validated(id);
    expect(record.status).toBe('INVALID');
    const [chunks] = await jes.server.db.query<{ n: number }>(
      'SELECT count(*)::int AS n FROM data_file_chunks WHERE owner = $1 AND id = $2',
      ['alice', id],
    );
    expect(chunks!.n).toBe(0);
    // 2.5 MiB of an INVALID file does not keep 2 MiB out of a quota of 3.
    expect((await upload(jes.alice, edgeList(2 * mib, 9))).status).toBe(201);
    if (job.status === 200) {
      await jes.alice.waitFor(job.body.job);
      expectProblem(await jes.alice.get(`/job/${job.body.job}/input`), 404, 'data_file_not_found');
    }
  });

  it('refuses the same bytes for another use case with 422 data_file_problem_mismatch (it answered the other record)', async () => {
    const text = 'p qubo 0 2 2 1\n0 0 -1\n1 1 -1\n0 1 3\n';
    expect((await upload(jes.bob, text, 'qubo')).status).toBe(201);
    const again = await upload(jes.bob, text, 'maxcut');
    expectProblem(again, 422, 'data_file_problem_mismatch');
    expect(again.body.errors).toEqual([expect.objectContaining({ pointer: '/problem_id' })]);
  });
});
