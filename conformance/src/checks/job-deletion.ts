// job_deletion: DELETE /job/{job_id} (deleteJob) deletes an ended job and nothing else. A job that has not ended
// answers 409 job_not_finished with Retry-After and is still there; an ended job answers 204, then reading it,
// its output and deleting it again answer 404 job_not_found and the listing no longer has it; the data file it
// was started from stays; an unknown id answers 404. For a job of every use case the deployment lists: the ended
// one is the run's job from its data file (fixtures.ts), deleted once the checks before have read it.
import { shown } from '../answer-text.ts';
import type { CheckContext } from '../context.ts';
import { pollJob, startLongJob } from '../jobs.ts';
import type { UseCaseInfo } from '../use-cases.ts';
import { type Check, statelessSkip } from './check.ts';
import { pathValues } from './probes.ts';

async function refusedWhileRunning(ctx: CheckContext, useCase: UseCaseInfo): Promise<void> {
  const id = await startLongJob(ctx, useCase);
  const refused = await ctx.send({ method: 'DELETE', path: `/job/${id}` });
  if (ctx.expectStatus(refused, 409, 'deleting a job that has not ended', 'job_not_finished')) {
    ctx.expect(
      /^\d+$/.test(refused.headers['retry-after'] ?? ''),
      `the 409 of deleting a job that has not ended has Retry-After ${shown(refused.headers['retry-after'])}, expected a number of seconds`,
      refused.exchange,
    );
  }
  ctx.expectStatus(
    await ctx.send({ method: 'GET', path: `/job/${id}` }),
    200,
    'reading a job after its deletion was refused',
  );
  ctx.expectStatus(
    await ctx.send({ method: 'POST', path: `/job/${id}/cancel` }),
    202,
    'cancelling the job whose deletion was refused',
  );
  await pollJob(ctx, id, { timeoutMs: 15_000 });
}

async function deletedOnceEnded(ctx: CheckContext, useCase: UseCaseInfo): Promise<void> {
  // The run's job from its data file: lifecycle, which reads it, has run by now (checks run in order).
  const { id, job, fileId } = await ctx.fixtures.fileJob(ctx, useCase);
  const deleted = await ctx.send({ method: 'DELETE', path: `/job/${id}` });
  if (!ctx.expectStatus(deleted, 204, `deleting an ended (${job.status}) job`)) return;
  ctx.expect(
    deleted.text === '',
    `the 204 of deleting a job has a body of ${deleted.text.length} characters`,
    deleted.exchange,
  );
  ctx.expectStatus(
    await ctx.send({ method: 'GET', path: `/job/${id}` }),
    404,
    'reading a deleted job',
    'job_not_found',
  );
  ctx.expectStatus(
    await ctx.send({ method: 'GET', path: `/job/${id}/output` }),
    404,
    "reading a deleted job's output",
    'job_not_found',
  );
  ctx.expectStatus(
    await ctx.send({ method: 'DELETE', path: `/job/${id}` }),
    404,
    'deleting a deleted job again',
    'job_not_found',
  );
  const page = await ctx.send({ method: 'GET', path: '/job', query: { limit: 100 } });
  if (ctx.expectStatus(page, 200, 'listing jobs after a deletion'))
    ctx.expect(!(page.json?.ids ?? []).includes(id), `GET /job still lists the deleted job ${id}`, page.exchange);
  ctx.expectStatus(
    await ctx.send({ method: 'GET', path: `/data_file/${fileId}` }),
    200,
    'reading the data file of a deleted job (it is kept)',
  );
}

export const jobDeletion: Check = {
  name: 'job_deletion',
  description:
    'DELETE /job/{job_id}: 409 job_not_finished with Retry-After while the job runs; 204 once it ended, then 404 job_not_found for the job, its output and a second delete, gone from the listing, its data file kept; 404 for an unknown id.',
  operations: [
    'deleteJob',
    'startMaxCutJob',
    'startQuboJob',
    'getJob',
    'getJobOutput',
    'cancelJob',
    'listJobs',
    'getDataFile',
  ],
  skip: ({ profile }) => (profile === 'sandbox' ? statelessSkip : undefined),
  async run(ctx) {
    ctx.expectStatus(
      await ctx.send({ method: 'DELETE', path: `/job/${pathValues(ctx).job_id}` }),
      404,
      'deleting an unknown job',
      'job_not_found',
    );
    for (const useCase of await ctx.fixtures.useCases(ctx)) {
      await refusedWhileRunning(ctx, useCase);
      await deletedOnceEnded(ctx, useCase);
    }
  },
};
