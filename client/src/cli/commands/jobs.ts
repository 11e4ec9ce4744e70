// jes jobs | status <id> | wait <id> | output <id> | cancel <id> | delete <id>.
import type { Command } from 'commander';
import type { JesClient } from '../../index.ts';
import { jobStatuses } from '../arguments.ts';
import { type Context, withClient } from '../context.ts';
import { ExitError, exitCodes, must } from '../errors.ts';
import { interruptible } from '../interrupt.ts';
import { listing } from '../listing.ts';
import { progress } from '../progress.ts';
import { jobsView, jobView, outputView } from '../views.ts';

export interface WaitChoices {
  /** Ctrl-C cancels the job instead of leaving it running. */
  cancelOnInterrupt?: boolean;
  /** False: long polls only (jes watch found no stream). */
  stream?: boolean;
}

export const cancelOnInterruptHelp = 'on Ctrl-C, cancel the job (else it goes on running in the service)';

/**
 * Waits for the job with a live progress line (on the job's event stream, whose progress events keep the best value
 * current; where the service has none, long polls of a second do), then shows it; exit code 1 when it ended in ERROR
 * or CANCELLED, 130 when Ctrl-C stopped the wait.
 */
export async function waitAndShow(
  ctx: Context,
  client: JesClient,
  id: string,
  { cancelOnInterrupt = false, stream = true }: WaitChoices = {},
) {
  const line = ctx.json ? undefined : progress(process.stderr);
  const wait = (signal: AbortSignal) =>
    client.waitForJob(id, { signal, stream, waitSeconds: ctx.json ? 30 : 1, onProgress: (job) => line?.update(job) });
  const result = await interruptible(client, id, cancelOnInterrupt, wait, () => line?.done());
  const job = must(result, { job: id });
  ctx.print(job, () => jobView(job));
  if (job.status !== 'FINISHED') throw new ExitError(exitCodes.jobFailed);
}

export function jobCommands(program: Command): void {
  listing(
    program.command('jobs').description('list your jobs, newest first'),
    jobStatuses,
    (client, query) => client.listJobs(query),
    jobsView,
  );

  program
    .command('status')
    .description("show a job: status, timestamps, each solver's state and answer (cut or energy)")
    .argument('<job-id>')
    .action(
      withClient(async (ctx, client, id: string) => {
        const job = must(await client.getJob(id), { job: id });
        ctx.print(job, () => jobView(job));
      }),
    );

  program
    .command('wait')
    .description(
      'wait for a job to end, showing its status, best value so far (cut or energy) and elapsed time; exit 1 if it ends in ERROR or CANCELLED',
    )
    .argument('<job-id>')
    .option('--cancel-on-interrupt', cancelOnInterruptHelp)
    .action(withClient((ctx, client, id: string, options: WaitChoices) => waitAndShow(ctx, client, id, options)));

  program
    .command('output')
    .description("show each solver's result of an ended job (the partitions or assignments with --json)")
    .argument('<job-id>')
    .action(
      withClient(async (ctx, client, id: string) => {
        const output = must(await client.getOutput(id), { job: id });
        ctx.print(output, () => outputView(output));
      }),
    );

  program
    .command('cancel')
    .description('ask the service to cancel a job')
    .argument('<job-id>')
    .action(
      withClient(async (ctx, client, id: string) => {
        const job = must(await client.cancelJob(id), { job: id });
        ctx.print(
          job,
          () => `Cancel requested for job ${job.id} (now ${job.status}); its solvers stop within a second.\n`,
        );
      }),
    );

  program
    .command('delete')
    .description('delete a job that has ended, with its input and output (its data file is kept)')
    .argument('<job-id>')
    .action(
      withClient(async (ctx, client, id: string) => {
        const deleted = must(await client.deleteJob(id), { job: id });
        ctx.print(deleted, () => `Deleted job ${id}.\n`);
      }),
    );
}
