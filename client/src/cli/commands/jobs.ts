// jes jobs | status <id> | wait <id> | output <id> | cancel <id>.
import { type Command, Option } from 'commander';
import type { Job, JesClient } from '../../index.ts';
import { type Context, context } from '../context.ts';
import { ExitError, exitCodes, must } from '../errors.ts';
import { positiveInteger } from '../arguments.ts';
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
  program
    .command('jobs')
    .description('list your jobs, newest first')
    .addOption(new Option('--status <status>', 'only jobs in this status').choices(['PENDING', 'RUNNING', 'FINISHED', 'ERROR', 'CANCELLED']))
    .option('--limit <n>', 'show at most this many', positiveInteger, 20)
    .action(async (options: { status?: Job['status']; limit: number }, command: Command) => {
      const ctx = context(command);
      const jobs: Job[] = [];
      const client = await ctx.client();
      for await (const page of client.listJobs({ ...(options.status ? { status: options.status } : {}), limit: Math.min(100, options.limit) })) {
        jobs.push(...must(page).items);
        if (jobs.length >= options.limit) break;
      }
      const shown = jobs.slice(0, options.limit);
      ctx.print(shown, () => jobsView(shown));
    });

  program
    .command('status')
    .description("show a job: status, timestamps, each solver's state and cut")
    .argument('<job-id>')
    .action(async (id: string, _options: object, command: Command) => {
      const ctx = context(command);
      const job = must(await (await ctx.client()).getJob(id));
      ctx.print(job, () => jobView(job));
    });

  program
    .command('wait')
    .description('wait for a job to end, showing its status, best cut so far and elapsed time; exit 1 if it ends in ERROR or CANCELLED')
    .argument('<job-id>')
    .action(async (id: string, _options: object, command: Command) => {
      const ctx = context(command);
      await waitAndShow(ctx, await ctx.client(), id);
    });

  program
    .command('output')
    .description("show each solver's result of an ended job (the partitions with --json)")
    .argument('<job-id>')
    .action(async (id: string, _options: object, command: Command) => {
      const ctx = context(command);
      const output = must(await (await ctx.client()).getOutput(id));
      ctx.print(output, () => outputView(output));
    });

  program
    .command('cancel')
    .description('ask the service to cancel a job')
    .argument('<job-id>')
    .action(async (id: string, _options: object, command: Command) => {
      const ctx = context(command);
      const job = must(await (await ctx.client()).cancelJob(id));
      ctx.print(job, () => `Cancel requested for job ${job.id} (now ${job.status}); its solvers stop within a second.\n`);
    });
}
