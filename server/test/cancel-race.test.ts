// Cancelling a job right after starting it races the workers claiming its executions. On PostgreSQL the
// two transactions lock the job and its executions in opposite orders; the cancel must still answer 202
// (found by the conformance suite, which cancels the jobs it starts at once).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Running } from '../src/main.ts';
import { backends, Client, sixNodes, startTestServer } from './support/server.ts';

describe.each(await backends())('on %s', (_name, backend) => {
  let server: Running;
  let alice: Client;

  beforeAll(async () => {
    server = await startTestServer(await backend.env());
    alice = await new Client(server.url).login('alice');
  });
  afterAll(async () => {
    await server?.close();
    await backend.drop();
  });

  it('every cancel of a job just started answers 202 or 409, never a server error', async () => {
    const statuses = await Promise.all(Array.from({ length: 24 }, async () => {
      const id = await alice.start(sixNodes, '?solver=exact&solver=annealing&time_limit_seconds=0.2');
      return (await alice.post(`/job/${id}/cancel`)).status;
    }));
    expect(statuses.filter((s) => s !== 202 && s !== 409)).toEqual([]);
  });
});
