// DELETE /job/{job_id} (deleteJob, contract 1.2.0): an ended job of this user goes with its input and output, its
// data file stays; another user's or an unknown job answers 404; a job that has not ended answers 409
// job_not_finished with Retry-After. On the embedded database and, where one runs, on PostgreSQL.
import { describe, expect, it } from 'vitest';
import { expectProblem } from './support/problems.ts';
import { backends, randomMatrix, sixNodes, sixNodesEdgeList } from './support/server.ts';
import { sharedServer } from './support/shared-server.ts';

describe.each(await backends())('on %s', (_name, backend) => {
  const jes = sharedServer({ JES_WORKERS: '1' }, { users: ['alice', 'bob'], backend });

  it('deletes an ended job with its executions; reading it again answers 404; its data file stays', async () => {
    const file = (await jes.alice.upload(sixNodesEdgeList, 'six.txt')).body.data_file_identifier;
    await jes.alice.validated(file);
    const id = await jes.alice.start({ data_file_identifier: file, solvers: [{ name: 'exact' }] });
    // Read to the end first, so the job sits in the server's cache of ended jobs: deleting must drop it there too.
    expect((await jes.alice.waitFor(id)).status).toBe('FINISHED');
    expect((await jes.alice.get(`/job/${id}/output`)).status).toBe(200);

    const deleted = await jes.alice.request('DELETE', `/job/${id}`);
    expect(deleted.status).toBe(204);
    expect(deleted.body).toBeUndefined();

    expectProblem(await jes.alice.get(`/job/${id}`), 404, 'job_not_found');
    expectProblem(await jes.alice.get(`/job/${id}/output`), 404, 'job_not_found');
    expectProblem(await jes.alice.request('DELETE', `/job/${id}`), 404, 'job_not_found');
    expect((await jes.alice.get('/job')).body.ids).not.toContain(id);
    const rows = await jes.server.db.query<{ n: number }>(
      'SELECT count(*)::int AS n FROM executions WHERE job_id = $1',
      [id],
    );
    expect(rows[0]!.n).toBe(0);
    expect((await jes.alice.get(`/data_file/${file}`)).status).toBe(200);
  });

  it("answers 404 for another user's job and for an unknown one, and keeps the job", async () => {
    const id = await jes.alice.start(sixNodes, '?solver=exact');
    await jes.alice.waitFor(id);
    expectProblem(await jes.bob.request('DELETE', `/job/${id}`), 404, 'job_not_found');
    expectProblem(await jes.alice.request('DELETE', '/job/ZZZZZZZZZZZZ'), 404, 'job_not_found');
    expect((await jes.alice.get(`/job/${id}`)).status).toBe(200);
  });

  it('answers 409 job_not_finished with Retry-After while the job runs, and deletes it once cancelled', async () => {
    const id = await jes.alice.start(sixNodes, '?solver=local-search&time_limit_seconds=30');
    const refused = await jes.alice.request('DELETE', `/job/${id}`);
    expectProblem(refused, 409, 'job_not_finished');
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(['PENDING', 'RUNNING']).toContain((await jes.alice.get(`/job/${id}`)).body.job[id].status);

    await jes.alice.post(`/job/${id}/cancel`);
    expect((await jes.alice.waitFor(id)).status).toBe('CANCELLED');
    expect((await jes.alice.request('DELETE', `/job/${id}`)).status).toBe(204);
    expectProblem(await jes.alice.get(`/job/${id}`), 404, 'job_not_found');
  });

  it('deletes as the job ends, racing its worker: only 409 until it has ended, then 204, never a server error', async () => {
    const id = await jes.alice.start(sixNodes, '?solver=local-search&time_limit_seconds=0.3');
    for (let status = 0; status !== 204;) {
      status = (await jes.alice.request('DELETE', `/job/${id}`)).status;
      expect([204, 409]).toContain(status);
    }
    expectProblem(await jes.alice.get(`/job/${id}`), 404, 'job_not_found');
    expect(await jes.server.db.query('SELECT 1 FROM executions WHERE job_id = $1', [id])).toEqual([]);
  });
  it('a long poll on a job deleted as it waits answers 404 job_not_found, not a server error', async () => {
    // Regression: getJob re-read the job after a wake-up and took it for granted (view!), so a job removed meanwhile
    // (DELETE /job racing the poll, or retention) made the long poll answer 500.
    const id = await jes.alice.start(
      { num_nodes: 60, adj_matrix: randomMatrix(60, 5) },
      '?solver=annealing&time_limit_seconds=30',
    );
    // Running first, so the only change the poll can see is the deletion.
    while ((await jes.alice.get(`/job/${id}`)).body.job[id].status !== 'RUNNING')
      await new Promise((resolve) => setTimeout(resolve, 50));
    const poll = jes.alice.get(`/job/${id}`, { prefer: 'wait=20' });
    await new Promise((resolve) => setTimeout(resolve, 300));
    await jes.server.db.transaction(async (tx) => {
      await tx.query('DELETE FROM executions WHERE job_id = $1', [id]);
      await tx.query('DELETE FROM jobs WHERE id = $1', [id]);
      await tx.query("SELECT pg_notify('jes_job', $1)", [id]);
    });
    expectProblem(await poll, 404, 'job_not_found');
  });
});
