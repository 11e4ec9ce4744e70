// Reading jobs through a small cache, so that a GET is not a database read per request.
import type { Database } from '../store/database.ts';
import { type JobView, readJob } from '../store/jobs.ts';
import type { JobEvents } from './events.ts';
import { terminalJob } from './status.ts';

/**
 * Jobs read recently, so that reading a job is not a database read per request: a terminal job never
 * changes and is kept; another is kept at most half a second (progress is not announced), and dropped as
 * soon as any process announces a change to it. A read that raced an announcement is not kept.
 */
export class JobViews {
  private readonly views = new Map<string, { view: JobView; at: number }>();
  private epoch = 0;
  private readonly capacity = 10_000;

  constructor(events: JobEvents) {
    events.onChange((id) => {
      this.epoch++;
      this.views.delete(id);
    });
  }

  async read(db: Database, owner: string, id: string): Promise<JobView | undefined> {
    const hit = this.views.get(id);
    if (hit && hit.view.job.owner === owner && (terminalJob.has(hit.view.job.status) || performance.now() - hit.at < 500)) return hit.view;
    const epoch = this.epoch;
    const view = await readJob(db, owner, id);
    if (view && epoch === this.epoch) {
      if (this.views.size >= this.capacity) this.views.delete(this.views.keys().next().value!);
      this.views.set(id, { view, at: performance.now() });
    }
    return view;
  }
}
