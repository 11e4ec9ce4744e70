// Reading jobs through a small cache, so that a GET is not a database read per request.
import { type BoundedCache, boundedCache } from '../core/bounded-cache.ts';
import type { Database } from '../store/database.ts';
import { type JobView, readJob } from '../store/jobs.ts';
import type { operations } from '@jes/contract';
import type { JobEvents } from './events.ts';
import { terminalJob } from '@jes/contract';
import { renderJob } from './render.ts';

export interface JobViewBounds {
  maxEntries?: number;
  /** Estimated from each view's JSON length: a job's output (a partition per solver) may be megabytes. */
  maxBytes?: number;
}

type GetJobAnswer = operations['getJob']['responses'][200]['content']['application/json'];

function deepFreeze<T>(value: T): T {
  if (typeof value === 'object' && value !== null && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const inner of Object.values(value)) deepFreeze(inner);
  }
  return value;
}

/** A view's size in memory, roughly: its JSON length, twice (JavaScript strings and objects weigh more than UTF-8). */
const sizeOfView = (id: string, entry: { view: JobView }) => id.length + 2 * JSON.stringify(entry.view).length;

/**
 * Jobs read recently, so that reading a job is not a database read per request: a terminal job never
 * changes and is kept; another is kept at most half a second (progress is not announced), and dropped as
 * soon as any process announces a change to it (or its deletion), and all are dropped when announcements may
 * have been missed. A read that raced an announcement is not
 * kept. Least recently read views go first, past a number of entries or of bytes.
 */
export class JobViews {
  private readonly views: BoundedCache<string, { view: JobView; at: number }>;
  private epoch = 0;
  /**
   * Answers to GET /job/{id}, frozen, so that the response validator (which remembers the frozen bodies that passed)
   * checks each once and res.json serializes each once (http/frozen-json.ts). A terminal job's answer is made once
   * for its view: it never changes. Another's changes with the clock, but only to the millisecond (its executions'
   * durations are given to the millisecond): the answer made in the same millisecond for the same view is the
   * same, byte for byte, so it is kept until the clock moves on.
   */
  private readonly answers = new WeakMap<JobView, { at: number; answer: GetJobAnswer }>();

  constructor(events: JobEvents, { maxEntries = 10_000, maxBytes = 64 * 1024 * 1024 }: JobViewBounds = {}) {
    this.views = boundedCache<string, { view: JobView; at: number }>({ maxEntries, maxBytes, sizeOf: sizeOfView });
    events.onChange((id) => this.forget(id));
    // A deletion or a change announced while the notifications connection was down was not heard.
    events.onMissed(() => {
      this.epoch++;
      this.views.clear();
    });
  }

  get size(): number {
    return this.views.size;
  }

  get bytes(): number {
    return this.views.bytes;
  }

  /** Drops a job at once (this process deleted it; other processes learn of it by the announcement). */
  forget(id: string): void {
    this.epoch++;
    this.views.delete(id);
  }

  /** The answer to GET /job/{id}: the job as the contract shows it (with its outputs), at `now`. */
  answer(view: JobView, now = new Date()): GetJobAnswer {
    const at = terminalJob.has(view.job.status) ? Infinity : now.getTime();
    const kept = this.answers.get(view);
    if (kept?.at === at) return kept.answer;
    const answer = deepFreeze({ job: { [view.job.id]: renderJob(view, true, now) } });
    this.answers.set(view, { at, answer });
    return answer;
  }

  /**
   * The job's view, from the cache when it may be: a terminal view always, another one for half a second unless
   * `fresh` (an answer that says "not finished yet" must not come from a cache that may have missed the end: one
   * API process answered 409 for a job another had answered FINISHED, while notifications reconnected; issue 28).
   */
  async read(db: Database, owner: string, id: string, { fresh = false } = {}): Promise<JobView | undefined> {
    const hit = this.views.get(id);
    if (
      hit &&
      hit.view.job.owner === owner &&
      (terminalJob.has(hit.view.job.status) || (!fresh && performance.now() - hit.at < 500))
    )
      return hit.view;
    const epoch = this.epoch;
    const view = await readJob(db, owner, id);
    if (view && epoch === this.epoch) this.views.set(id, { view, at: performance.now() });
    return view;
  }
}
