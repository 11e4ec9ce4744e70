// jes jobs | status <id> | wait <id> | output <id> | cancel <id> | delete <id>.
import type { Command } from 'commander';
import type { JesClient } from '../../index.ts';
import { type Context, withClient } from '../context.ts';
import { ExitError, exitCodes, must } from '../errors.ts';
import { listing } from '../listing.ts';
import { progress } from '../progress.ts';
import { jobsView, jobView, outputView } from '../views.ts';

/**
 * Waits for the job with a live progress line (long polls of a second, so the best cut stays current),
 * then shows it; exit code 1 when it ended in ERROR or CANCELLED.
 */
export async function waitAndShow(ctx: Context, client: JesClient, id: string): Promise<void> {
  const line = ctx.json ? undefined : progress(process.stderr);
  const result = await client.waitForJob(id, { waitSeconds: ctx.json ? 30 : 1, onProgress: (job) => line?.update(job) });
  line?.done();
  const job = must(result);
  ctx.print(job, () => jobView(job));
  if (job.status !== 'FINISHED') throw new ExitError('', exitCodes.jobFailed);
}

export function jobCommands(program: Command): void {
  listing(program.command('jobs').description('list your jobs, newest first'), ['PENDING', 'RUNNING', 'FINISHED', 'ERROR', 'CANCELLED'], (client, query) => client.listJobs(query), jobsView);

  program
    .command('status')
    .description("show a job: status, timestamps, each solver's state and cut")
    .argument('<job-id>')
    .action(withClient(async (ctx, client, id: string) => {
      const job = must(await client.getJob(id));
      ctx.print(job, () => jobView(job));
    }));

  program
    .command('wait')
    .description('wait for a job to end, showing its status, best cut so far and elapsed time; exit 1 if it ends in ERROR or CANCELLED')
    .argument('<job-id>')
    .action(withClient((ctx, client, id: string) => waitAndShow(ctx, client, id)));

  program
    .command('output')
    .description("show each solver's result of an ended job (the partitions with --json)")
    .argument('<job-id>')
    .action(withClient(async (ctx, client, id: string) => {
      const output = must(await client.getOutput(id));
      ctx.print(output, () => outputView(output));
    }));

  program
    .command('cancel')
    .description('ask the service to cancel a job')
    .argument('<job-id>')
    .action(withClient(async (ctx, client, id: string) => {
      const job = must(await client.cancelJob(id));
      ctx.print(job, () => `Cancel requested for job ${job.id} (now ${job.status}); its solvers stop within a second.\n`);
    }));

  program
    .command('delete')
    .description('delete a job that has ended, with its input and output (its data file is kept)')
    .argument('<job-id>')
    .action(withClient(async (ctx, client, id: string) => {
      const deleted = must(await client.deleteJob(id));
      ctx.print(deleted, () => `Deleted job ${id}.\n`);
    }));
}
