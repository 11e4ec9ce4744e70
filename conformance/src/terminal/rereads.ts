// terminal_states' re-reads: the jobs the run has seen end and the jobs and data files it deleted, read again under
// the check's name, a few between checks once `everyMs` has passed since the last time (run.ts asks after each
// check), and all of them, up to a bound, when the check runs near the end of the run. The watch (watch.ts)
// judges the answers as it judges every other; a re-read of something gone is also held to its 404's code here.
// The bounds keep a large run from doubling its requests, and stay far inside the reference server's `default` rate
// limit (1,200 requests a minute per user); the suite paces itself by the deployment's RateLimit headers anyway.
import { answered } from '../answer-text.ts';
import { CheckAbort, type Http, type Reply, type RequestSpec, TargetUnreachable } from '../http.ts';
import { type Kind, notFoundCode } from './readings.ts';
import { type TerminalWatch, type User } from './watch.ts';

/**
 * Between checks, at most every 15 s (a whole run takes about a minute: three or four rounds), 4 ended jobs (GET
 * /job/{job_id}), 2 gone ones and one page of each user's listing: 7 requests a round. At the end, up to 32 ended
 * jobs (GET /job/{job_id} and its output: 64 requests) and 32 gone ones, and the listings: at most about 100
 * requests, against a whole run's ~800 (a run of the reference server sees some 45 jobs end and deletes a dozen
 * things). Those least recently re-read go first, so the rounds and the end between them reach nearly every one.
 */
export const rereadBounds = {
  everyMs: 15_000,
  between: { jobs: 4, gone: 2, outputs: false },
  atEnd: { jobs: 32, gone: 32, outputs: true },
} as const;

type Send = (spec: RequestSpec) => Promise<Reply>;

interface Bounds {
  jobs: number;
  gone: number;
  /** Whether to read each job's output too. */
  outputs: boolean;
}

const pathOf = (kind: Kind, id: string) => `/${kind}/${encodeURIComponent(id)}`;

/** Sends, or says why it could not (a request that got no answer); a deployment gone away stops the caller. */
async function tried(send: Send, spec: RequestSpec, notes: string[]): Promise<Reply | undefined> {
  try {
    return await send(spec);
  } catch (error) {
    if (!(error instanceof CheckAbort)) throw error;
    notes.push(`could not re-read: ${error.message}`);
    return undefined;
  }
}

/** Re-reads up to `bounds` of what the watch holds, least recently re-read first; how many of each it read. */
export async function reread(
  send: Send,
  watch: TerminalWatch,
  bounds: Bounds,
): Promise<{ jobs: number; gone: number }> {
  const jobs = watch.endedJobs().slice(0, bounds.jobs);
  const gone = watch.goneOnes().slice(0, bounds.gone);
  const users = new Set<User>();
  for (const job of jobs) {
    job.reread = performance.now();
    users.add(job.user);
    await tried(send, { method: 'GET', path: pathOf('job', job.id), auth: job.user }, watch.notes);
    if (bounds.outputs)
      await tried(send, { method: 'GET', path: `${pathOf('job', job.id)}/output`, auth: job.user }, watch.notes);
  }
  for (const one of gone) {
    one.reread = performance.now();
    const reply = await tried(send, { method: 'GET', path: pathOf(one.kind, one.id), auth: one.user }, watch.notes);
    // 200 and the like are the watch's (it is back); a 404 must be the resource's own.
    if (reply?.status === 404 && reply.json?.code !== notFoundCode[one.kind])
      watch.fail(
        `reading the ${one.kind === 'job' ? 'job' : 'data file'} ${one.id} ${one.how === 'deleted' ? 'the run deleted' : 'that had gone'}: expected 404 ${notFoundCode[one.kind]}, got ${answered(reply)}`,
        reply.exchange,
      );
  }
  // One page of each listing (the newest hundred): an ended job listed otherwise, or a deleted one listed, fails.
  for (const user of users)
    await tried(send, { method: 'GET', path: '/job', query: { limit: 100 }, auth: user }, watch.notes);
  for (const user of new Set(gone.filter((g) => g.kind === 'data_file').map((g) => g.user)))
    await tried(send, { method: 'GET', path: '/data_file', query: { limit: 100 }, auth: user }, watch.notes);
  return { jobs: jobs.length, gone: gone.length };
}

/**
 * The watch over a run that runs terminal_states: told of every answer by `http`, and re-reading a few things
 * between checks (under the check's name) until the check has run.
 */
export class Terminals {
  readonly watch: TerminalWatch;
  /** Requests sent between checks, and what they re-read (the check reports both). */
  requests = 0;
  readonly betweenChecks = { rounds: 0, jobs: 0, gone: 0 };
  private last = performance.now();
  private stopped = false;
  private readonly http: Http;
  private readonly check: string;

  constructor(http: Http, check: string, watch: TerminalWatch) {
    this.http = http;
    this.check = check;
    this.watch = watch;
    http.onAnswer = (exchange, sentAt) => watch.seen(exchange, sentAt);
  }

  /** Between two checks: a round of re-reads when `everyMs` has passed since the last one. */
  async between(): Promise<void> {
    if (this.stopped || performance.now() - this.last < rereadBounds.everyMs) return;
    if (!this.watch.endedJobs().length && !this.watch.goneOnes().length) return;
    this.last = performance.now();
    const send: Send = (spec) => {
      this.requests++;
      return this.http.send(this.check, spec);
    };
    try {
      const read = await reread(send, this.watch, rereadBounds.between);
      this.betweenChecks.rounds++;
      this.betweenChecks.jobs += read.jobs;
      this.betweenChecks.gone += read.gone;
    } catch (error) {
      // The deployment went away: run.ts sees it (http.unreachable) and stops the run there.
      if (!(error instanceof TargetUnreachable)) throw error;
    }
  }

  /** The check has run: nothing more is watched or re-read. */
  stop(): void {
    this.stopped = true;
    this.http.onAnswer = undefined;
  }
}
