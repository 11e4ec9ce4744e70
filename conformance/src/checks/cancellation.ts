// The stateful half of lifecycle, on one long job started from a data file: while it runs its output is 409
// job_not_finished (with Retry-After), a long poll on it comes back after its wait with Preference-Applied, its
// data file cannot be deleted (409 data_file_in_use); a cancel answers 202 with cancel_requested_at and the job
// ends CANCELLED; an ended job cannot be cancelled (409 job_already_terminal). Run for one use case at a time.
import { shown } from '../answer-text.ts';
import type { CheckContext } from '../context.ts';
import { jobOf, pollJob, startJob } from '../jobs.ts';
import type { UseCaseInfo } from '../use-cases.ts';
import { checkOutput, checkProgression } from './lifecycle.ts';

/** A long poll of 1 s on a running job answers after about a second, saying it waited. */
async function longPoll(ctx: CheckContext, id: string): Promise<void> {
  // Timed on the monotonic clock: a step of the wall clock during the poll must not pass or fail it.
  const asked = performance.now();
  const polled = await ctx.send({
    method: 'GET',
    path: `/job/${id}`,
    headers: { prefer: 'wait=1' },
    timeoutMs: 15_000,
  });
  const waited = Math.round(performance.now() - asked);
  if (!ctx.expectStatus(polled, 200, 'a long poll (Prefer: wait=1) on a running job')) return;
  ctx.expect(
    polled.headers['preference-applied'] === 'wait=1',
    `a long poll answered with Preference-Applied ${shown(polled.headers['preference-applied'])}, expected "wait=1"`,
    polled.exchange,
  );
  const unchanged = jobOf(polled)?.job.status === 'RUNNING';
  ctx.expect(
    !unchanged || (waited >= 900 && waited < 10_000),
    `a long poll of 1 s on a job whose status did not change answered after ${waited} ms`,
    polled.exchange,
  );
}

export async function cancellation(ctx: CheckContext, useCase: UseCaseInfo): Promise<void> {
  const finished = await ctx.fixtures.finishedJob(ctx, useCase);
  ctx.expectStatus(
    await ctx.send({ method: 'POST', path: `/job/${finished.id}/cancel` }),
    409,
    'cancelling a FINISHED job',
    'job_already_terminal',
  );

  const file = await ctx.fixtures.longDataFile(ctx, useCase);
  const { id } = await startJob(
    ctx,
    useCase.id,
    { data_file_identifier: file.id, solvers: [{ name: useCase.heuristic.name }], time_limit_seconds: 60 },
    undefined,
    `starting a long ${useCase.id} job from a data file`,
  );
  ctx.fixtures.atEnd(() => ctx.send({ method: 'POST', path: `/job/${id}/cancel` }));
  const running = await pollJob(ctx, id, { timeoutMs: 30_000, done: (job) => job.status !== 'PENDING' });
  ctx.expect(
    running.job.status === 'RUNNING',
    `a job with a 60 s time limit is ${running.job.status} soon after it started`,
    running.reply.exchange,
  );
  const early = await ctx.send({ method: 'GET', path: `/job/${id}/output` });
  ctx.expectStatus(early, 409, 'the output of a running job', 'job_not_finished');
  await longPoll(ctx, id);
  ctx.expectStatus(
    await ctx.send({ method: 'DELETE', path: `/data_file/${file.id}` }),
    409,
    'deleting a data file a running job uses',
    'data_file_in_use',
  );

  const cancel = await ctx.send({ method: 'POST', path: `/job/${id}/cancel` });
  if (ctx.expectStatus(cancel, 202, 'cancelling a running job')) {
    ctx.expect(
      typeof jobOf(cancel)?.job.cancel_requested_at === 'string',
      'the 202 of a cancel does not show cancel_requested_at',
      cancel.exchange,
    );
  }
  const ended = await pollJob(ctx, id, { timeoutMs: 15_000 });
  ctx.expect(ended.job.status === 'CANCELLED', `a cancelled job ended ${ended.job.status}`, ended.reply.exchange);
  checkProgression(ctx, id, ['RUNNING', ...ended.statuses.filter((s) => s !== 'RUNNING')], ended.reply);
  await checkOutput(ctx, id, ended.job);
}
