// Jobs created straight through the store module, for the tests of the queue, the leases and the query plans: an
// inline max-cut job whose input is two bytes, not a graph (these tests never solve it).
import type { Database } from '../../src/store/database.ts';
import { createJob, type NewJob } from '../../src/store/jobs.ts';

/** Creates a job of `owner` with one execution per solver (1 s, seed 1), or as `overrides` say; answers its id. */
export function storedJob(db: Database, owner: string, solvers: string[], overrides: Partial<NewJob> = {}) {
  return createJob(db, {
    owner,
    problemId: 'maxcut',
    inputMode: 'inline',
    dataFileId: null,
    inputBytes: 2,
    input: new Uint8Array(2),
    inputPrepared: false,
    executions: solvers.map((solver) => ({ solver, params: {}, timeLimitSeconds: 1, seed: 1 })),
    maxActiveJobs: 1000,
    ...overrides,
  });
}
