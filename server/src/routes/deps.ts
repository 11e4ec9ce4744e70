// What the routes are given: the app's dependencies, in a module of their own so that app.ts (which builds them)
// and the routes (which use them) do not import each other.
import type { Logger } from 'pino';
import type { TokenIssuer } from '../auth/tokens.ts';
import type { Config } from '../config/config.ts';
import type { Limiters } from '../http/rate-limits.ts';
import type { JobEvents } from '../jobs/events.ts';
import type { Metrics } from '../metrics/metrics.ts';
import type { EventStreams } from '../jobs/streams.ts';
import type { Database } from '../store/database.ts';
import type { DiskSpace } from '../store/disk-space.ts';

export interface AppDeps {
  db: Database;
  config: Config;
  tokens: TokenIssuer;
  events: JobEvents;
  /** The open event streams of this process (GET /job/{job_id}/events, GET /events). */
  streams: EventStreams;
  logger: Logger;
  limiters: Limiters;
  /** Whether the process is draining before it stops (GET /readyz answers 503); never, unless given. */
  draining?: (() => boolean) | undefined;
  /** The embedded database's disk, watched for its floor of free space; undefined on PostgreSQL and in memory. */
  space?: DiskSpace | undefined;
  /** The process's metrics; undefined when JES_METRICS=off. */
  metrics?: Metrics | undefined;
}
