// The one job the stream checks follow, made once per run (fixtures.ts' way), so that they cost the deployment's
// `submit` quota one job, not three: the user's stream (GET /events) opened first, then the job started (the
// first use case's example, its heuristic and its exact solver, a second: the heuristic runs its whole time
// limit, so everything is read live), and at once two streams of it: one read to its end, one closed after its
// first two events and resumed with Last-Event-ID after them, as a client that lost its connection. Each part
// is a promise the check judging it awaits, so a deployment without GET /events fails user_events alone.
import type { CheckContext } from './context.ts';
import { endedIn, readJobStream, readStream } from './job-events.ts';
import { startJob } from './jobs.ts';

type Read = Awaited<ReturnType<typeof readStream>>;

export interface FollowedJob {
  id: string;
  /** The user's stream, opened before the job started, read until the job's terminal status (or 60 s). */
  user: Promise<Read>;
  /** The job's stream from its start, read until it closed. */
  whole: Promise<Read>;
  /** The job's stream closed after its first two events (more may have come in the same piece: the client lost them). */
  first: Promise<Read>;
  /** The job's stream resumed with Last-Event-ID after the second event `first` read, until it closed. */
  rest: Promise<Read & { after: string | undefined }>;
}

/**
 * Starts a job to follow: the first use case's example for its heuristic and its exact solver (when it has one), a
 * second (the heuristic runs its whole time limit); its id.
 */
export async function startFollowedJob(ctx: CheckContext, what: string): Promise<string> {
  const [useCase] = await ctx.fixtures.useCases(ctx);
  const solver = [useCase!.heuristic.name, ...(useCase!.exact ? [useCase!.exact.name] : [])];
  return (await startJob(ctx, useCase!.id, useCase!.example, { solver, time_limit_seconds: 1 }, `starting ${what}`)).id;
}

/** A part's failure is its check's to report: nobody else awaits it, so it must not count as unhandled. */
function kept<T>(promise: Promise<T>): Promise<T> {
  promise.catch(() => undefined);
  return promise;
}

export function followedJob(ctx: CheckContext): Promise<FollowedJob> {
  return ctx.fixtures.shared('followed job', async () => {
    let id: string | undefined;
    let opened!: () => void;
    const open = new Promise<void>((resolve) => (opened = resolve));
    const user = kept(
      readStream(
        ctx,
        '/events',
        "the user's events",
        {},
        {
          opened,
          enough: (events) => id !== undefined && endedIn(id)(events),
          ms: 60_000,
        },
      ),
    );
    await Promise.race([open, user.catch(() => undefined)]);
    const jobId = await startFollowedJob(ctx, 'the job the stream checks follow');
    id = jobId;
    const whole = kept(readJobStream(ctx, jobId));
    const first = kept(
      readStream(
        ctx,
        `/job/${jobId}/events`,
        `the first events of job ${jobId}`,
        {},
        {
          enough: (events) => events.length >= 2,
          ms: 60_000,
        },
      ),
    );
    const rest = kept(
      first.then(async (read) => {
        const after = read.events[1]?.id;
        return { ...(await readJobStream(ctx, jobId, after === undefined ? {} : { header: after })), after };
      }),
    );
    return { id: jobId, user, whole, first, rest };
  });
}
