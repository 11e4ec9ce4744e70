// jes watch <job-id>: the job's events as they happen (GET /job/{job_id}/events), one line each (its status, each
// solver's status, each better value), then the job as jes status shows it; --json prints each event as a line of
// JSON instead, the `end` event carrying the job. Exit codes as jes wait. A service without the stream is waited on
// with long polls, as jes wait does.
import type { Command } from 'commander';
import type { Job, JobEvent, JesClient, Problem } from '../../index.ts';
import { type Context, withClient } from '../context.ts';
import { ExitError, exitCodes, must } from '../errors.ts';
import { interruptible } from '../interrupt.ts';
import { eventLine, jobView } from '../views.ts';
import { cancelOnInterruptHelp, waitAndShow, type WaitChoices } from './jobs.ts';

/** A refusal that means the service has no event stream (not that the job is unknown). */
function noStream(problem: Problem, status: number): boolean {
  return (
    status === 405 || (status === 404 && problem.code !== 'job_not_found') || problem.code === 'not_an_event_stream'
  );
}

/** Prints each event; resolves to the ended job, or to undefined when the service has no stream. */
async function follow(ctx: Context, client: JesClient, id: string, problemId: string, signal: AbortSignal) {
  const onReconnect = (_: number, ms: number, reason: string) =>
    ctx.json || process.stderr.write(`jes: the stream dropped (${reason}); resuming in ${(ms / 1000).toFixed(1)} s\n`);
  for await (const result of client.jobEvents(id, { signal, reconnect: { onReconnect } })) {
    if (result.error && noStream(result.error, result.response.status)) return undefined;
    const event: JobEvent = must(result, { job: id });
    if (ctx.json) process.stdout.write(`${JSON.stringify(event)}\n`);
    if (event.event === 'end') return event.data;
    if (!ctx.json) process.stdout.write(`${eventLine(event, problemId)}\n`);
  }
  throw new ExitError(exitCodes.problem, {
    code: 'stream_ended',
    detail: `the events of job ${id} ended without its end`,
  });
}

export function watchCommand(program: Command): void {
  program
    .command('watch')
    .description(
      "follow a job's events as they happen (its status, each solver's status, each better value), then show the job; exit 1 if it ends in ERROR or CANCELLED",
    )
    .argument('<job-id>')
    .option('--cancel-on-interrupt', cancelOnInterruptHelp)
    .action(
      withClient(async (ctx, client, id: string, options: WaitChoices) => {
        // The job first: its use case names the values (cut or energy), and an unknown id is reported as such.
        const { problem_id: problemId } = must(await client.getJob(id), { job: id });
        const cancel = options.cancelOnInterrupt ?? false;
        const ended: Job | undefined = await interruptible(
          client,
          id,
          cancel,
          (signal) => follow(ctx, client, id, problemId, signal),
          () => {},
        );
        if (!ended) {
          if (!ctx.json) process.stderr.write('jes: this service has no event stream; waiting with long polls\n');
          return waitAndShow(ctx, client, id, { ...options, stream: false });
        }
        if (!ctx.json) process.stdout.write(`\n${jobView(ended)}`);
        if (ended.status !== 'FINISHED') throw new ExitError(exitCodes.jobFailed);
      }),
    );
}
