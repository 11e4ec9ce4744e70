// GET /job/{job_id}/input against deletions, on both databases (issue 27): a DELETE of the job racing the read
// answered 500 `job … is gone` on PostgreSQL (now 404), and a data file deleted while its input streamed ended the
// answer short of its Content-Length, so the client waited for good (now the connection is cut, and it sees why).
import { request } from 'node:http';
import { describe, expect, it } from 'vitest';
import { backends, sixNodes } from './support/server.ts';
import { sharedServer } from './support/shared-server.ts';

describe.each(await backends())('on %s', (_name, backend) => {
  const jes = sharedServer({}, { backend });

  it("answers a read of the input racing its job's deletion with 200 or 404, never a 500", async () => {
    for (let round = 0; round < 70; round++) {
      const id = await jes.alice.start(sixNodes, '?solver=exact');
      await jes.alice.waitFor(id);
      const [read, deleted] = await Promise.all([
        jes.alice.get(`/job/${id}/input`),
        jes.alice.request('DELETE', `/job/${id}`),
      ]);
      expect(deleted.status).toBe(204);
      expect([200, 404]).toContain(read.status);
    }
  });

  it('cuts the connection when the data file is deleted while its input streams, so the client is not left waiting', async () => {
    // 24 MiB of edges (24 chunks): more than the socket buffers take, so the answer is still streaming.
    const line = '1 2 1\n';
    const text = `2 ${4 * 1024 * 1024}\n${line.repeat(4 * 1024 * 1024)}`;
    const id = (await jes.alice.upload(text, 'big.txt')).body.data_file_identifier;
    const job = (
      await jes.alice.post('/problem/maxcut?solver=local-search&time_limit_seconds=0.1', { data_file_identifier: id })
    ).body.job;
    expect((await jes.alice.waitFor(job, 60)).status).toMatch(/FINISHED|ERROR/);
    const outcome = await new Promise<string>((resolve) => {
      const req = request(
        `${jes.url}/job/${job}/input`,
        { headers: { authorization: `Bearer ${jes.alice.token}` } },
        (res) => {
          let received = 0;
          res.once('data', async (first: Buffer) => {
            received += first.length;
            res.pause(); // a slow client: the rest waits in the server
            expect((await jes.alice.request('DELETE', `/data_file/${id}`)).status).toBe(204);
            res.on('data', (chunk: Buffer) => (received += chunk.length));
            res.resume();
          });
          res.on('end', () => resolve(`ended with ${received} of ${res.headers['content-length']} bytes`));
          res.on('error', () => resolve('broken off'));
          res.on('aborted', () => resolve('broken off'));
        },
      );
      req.on('error', () => resolve('broken off'));
      req.end();
      setTimeout(() => resolve('still waiting after 20 s'), 20_000).unref();
    });
    expect(outcome).toBe('broken off');
  }, 90_000);
});
