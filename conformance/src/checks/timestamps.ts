// timestamps: every job and data file the run has seen (in any check's answers) keeps the documented
// format, in UTC, with end_at "" until the end and never before started_at; a job started now says now
// (against the server's own Date header, on the run's job of the example). In the sandbox: each of the contract's
// job examples, chosen with Prefer: example=….
import type { CheckContext } from '../context.ts';
import { jobOf } from '../jobs.ts';
import { dataFileTimestampProblems, jobTimestampProblems, parseTimestamp } from '../timestamps.ts';
import type { Exchange } from '../types.ts';
import type { Check } from './check.ts';

/** Every job and data file record in an answer (envelopes and pages alike). */
function records(exchange: Exchange): { kind: 'job' | 'data_file'; id: string; record: any }[] {
  const body = exchange.response?.json as Record<string, unknown> | undefined;
  const found: { kind: 'job' | 'data_file'; id: string; record: any }[] = [];
  for (const kind of ['job', 'data_file'] as const) {
    const members = body?.[kind];
    if (!members || typeof members !== 'object') continue;
    for (const [id, record] of Object.entries(members))
      if (record && typeof record === 'object' && 'status' in record) found.push({ kind, id, record });
  }
  return found;
}

async function probes(ctx: CheckContext): Promise<void> {
  if (ctx.sandbox) {
    const id = ctx.contract.parameter('getJob', 'job_id').example as string;
    for (const example of Object.keys(
      ctx.contract.response('getJob', 200)?.content?.['application/json']?.examples ?? {},
    )) {
      await ctx.send({ method: 'GET', path: `/job/${id}`, headers: { prefer: `example=${example}` } });
    }
    ctx.note('skipped in the sandbox profile: that a job started now says now (the examples carry fixed instants)');
    return;
  }
  // The run's job of the example: its start's Date header against the started_at it then reads with.
  const [useCase] = await ctx.fixtures.useCases(ctx);
  const { id, started, reply } = await ctx.fixtures.finishedJob(ctx, useCase!);
  const job = jobOf(reply)?.job;
  const serverNow = Date.parse(started.reply.headers.date ?? '') || Date.now();
  const at = parseTimestamp(job?.started_at);
  if (at !== undefined)
    ctx.expect(
      Math.abs(at - serverNow) <= 120_000,
      `job ${id} started at ${job.started_at}, but the server's Date header said ${new Date(serverNow).toUTCString()}; the timestamps are in UTC`,
      reply.exchange,
    );
}

export const timestamps: Check = {
  name: 'timestamps',
  description:
    'Every started_at, end_at and created_at the run sees is MM/DD/YYYY, HH:MM:SS in UTC (the same instant as its RFC 3339 twin, and a new job says now); end_at is "" until the record ends and never before started_at.',
  operations: ['getJob', 'listJobs', 'cancelJob', 'getDataFile', 'listDataFiles', 'uploadDataFile'],
  async run(ctx) {
    for (const useCase of await ctx.fixtures.useCases(ctx)) {
      await ctx.fixtures.finishedJob(ctx, useCase);
      await ctx.fixtures.dataFile(ctx, useCase);
    }
    await probes(ctx);
    const seen = new Set<string>();
    let count = 0;
    for (const exchange of ctx.exchanges) {
      for (const { kind, id, record } of records(exchange)) {
        count++;
        for (const problem of kind === 'job'
          ? jobTimestampProblems(id, record)
          : dataFileTimestampProblems(id, record)) {
          if (!seen.has(problem)) ctx.fail(problem, exchange);
          seen.add(problem);
        }
      }
    }
    ctx.note(`${count} job and data-file records checked`);
  },
};
