// The open event streams of this process (GET /job/{job_id}/events, GET /events), kept cheap: an idle stream costs
// its socket and this small record, no timer and no query. One listener per channel (`jes_event`: a job id,
// `jes_user`: an owner) wakes the feed of that job or user, which reads the log after the earliest id its streams
// have sent, once for them all, and writes each stream what it has not had. A dropped notifications connection
// loses nothing: the log is read again after a resync, and every second while notifications are down. One shared
// tick sends keep-alives and ends the streams whose token has expired.
import type { ServerResponse } from 'node:http';
import type { Logger } from 'pino';
import { eventFrame, keepAliveFrame, keepAliveMs, streamPreamble, terminalJob } from '@jes/contract';
import { rfc3339 } from '@jes/contract';
import type { Database } from '../store/database.ts';
import { eventChannel, userChannel } from '../store/channels.ts';
import { readJobEvents, readUserEvents, type StoredJobEvent } from '../store/job-events.ts';
import { readJob } from '../store/jobs.ts';
import { renderJob } from './render.ts';

/** Bytes a stream may have waiting for its client: past them the client is not reading, and is disconnected. */
export const maxBufferedBytes = 256 * 1024;
/** Events read from the log at a time. */
const batch = 500;
const tickMs = 1000;

interface Stream {
  res: ServerResponse;
  /** The id of the last event sent (its Last-Event-ID). */
  after: number;
  /** performance.now() of the last write, for the keep-alive. */
  lastWrite: number;
  /** When its token expires (ms since the epoch). */
  expires: number;
  /** Its job had ended when it opened: it closes once it has been sent the log (resumed after `end`, it has all). */
  ended: boolean;
}

interface Feed {
  /** A job's id or an owner's name. */
  key: string;
  owner: string;
  kind: 'job' | 'user';
  streams: Set<Stream>;
  reading: boolean;
  again: boolean;
}

export interface StreamOpening {
  res: ServerResponse;
  owner: string;
  after: number;
  /** When the token the stream was opened with expires (ms since the epoch). */
  expires: number;
  /** The job had ended when the stream opened. */
  ended?: boolean;
}

export class EventStreams {
  private readonly jobs = new Map<string, Feed>();
  private readonly users = new Map<string, Feed>();
  private readonly unlisten: (() => Promise<void>)[] = [];
  private tick: NodeJS.Timeout | undefined;
  private readonly db: Database;
  private readonly logger: Logger;
  private count = 0;

  constructor(db: Database, logger: Logger) {
    this.db = db;
    this.logger = logger;
  }

  /** Streams open in this process. */
  get size(): number {
    return this.count;
  }

  async start(): Promise<void> {
    const everyFeed = () => this.wakeAll();
    this.unlisten.push(await this.db.listen(eventChannel, (id) => this.wake(this.jobs.get(id)), everyFeed));
    this.unlisten.push(await this.db.listen(userChannel, (owner) => this.wake(this.users.get(owner)), everyFeed));
    this.tick = setInterval(() => this.onTick(), tickMs).unref();
  }

  /** A job's stream: its events after `after`, live until its terminal status (sent as `end`). */
  openJob(jobId: string, opening: StreamOpening): void {
    this.open(this.jobs, 'job', jobId, opening);
  }

  /** A user's stream: their jobs' status events after `after` (a user_seq), live. */
  openUser(opening: StreamOpening): void {
    this.open(this.users, 'user', opening.owner, opening);
  }

  /** Ends every stream (the server is shutting down; clients reconnect elsewhere with Last-Event-ID). */
  async stop(): Promise<void> {
    clearInterval(this.tick);
    for (const feeds of [this.jobs, this.users])
      for (const feed of feeds.values()) for (const stream of feed.streams) stream.res.end();
    await Promise.all(this.unlisten.map((u) => u()));
  }

  private open(feeds: Map<string, Feed>, kind: Feed['kind'], key: string, opening: StreamOpening): void {
    const { res } = opening;
    res.writeHead(200, {
      'Content-Type': 'text/event-stream',
      // Nothing between here and the client may keep or buffer it (a proxy's compression would hold events back).
      'Cache-Control': 'no-store, no-transform',
      'X-Accel-Buffering': 'no',
    });
    res.write(streamPreamble);
    let feed = feeds.get(key);
    if (!feed) {
      feed = { key, owner: opening.owner, kind, streams: new Set(), reading: false, again: false };
      feeds.set(key, feed);
    }
    const stream: Stream = {
      res,
      after: opening.after,
      lastWrite: performance.now(),
      expires: opening.expires,
      ended: opening.ended ?? false,
    };
    feed.streams.add(stream);
    this.count++;
    const theFeed = feed;
    res.once('close', () => {
      if (!theFeed.streams.delete(stream)) return;
      this.count--;
      if (theFeed.streams.size === 0 && !theFeed.reading) feeds.delete(key);
    });
    this.wake(feed);
  }

  private wakeAll(): void {
    for (const feeds of [this.jobs, this.users]) for (const feed of feeds.values()) this.wake(feed);
  }

  private onTick(): void {
    if (this.db.notifications() === 'down') this.wakeAll();
    const now = performance.now();
    const clock = Date.now();
    for (const feeds of [this.jobs, this.users])
      for (const feed of feeds.values())
        for (const stream of feed.streams) {
          // The token is no longer valid: the client reconnects with a new one and Last-Event-ID.
          if (clock >= stream.expires) stream.res.end();
          else if (now - stream.lastWrite >= keepAliveMs) this.write(stream, keepAliveFrame);
        }
  }

  /** Reads the feed's log once for all its streams; a wake during a read reads again after it. */
  private wake(feed: Feed | undefined): void {
    if (!feed) return;
    if (feed.reading) {
      feed.again = true;
      return;
    }
    feed.reading = true;
    void this.pump(feed)
      .catch((err) => {
        // The database failed: the streams end, and their clients resume with Last-Event-ID.
        this.logger.warn({ err, feed: feed.key }, 'reading job events failed; closing the streams that wait on them');
        for (const stream of feed.streams) stream.res.end();
      })
      .finally(() => {
        feed.reading = false;
        const feeds = feed.kind === 'job' ? this.jobs : this.users;
        if (feed.streams.size === 0) {
          if (feeds.get(feed.key) === feed) feeds.delete(feed.key);
        } else if (feed.again) this.wake(feed);
      });
  }

  private async pump(feed: Feed): Promise<void> {
    do {
      feed.again = false;
      for (;;) {
        if (feed.streams.size === 0) return;
        let from = Infinity;
        for (const stream of feed.streams) from = Math.min(from, stream.after);
        const events =
          feed.kind === 'job'
            ? await readJobEvents(this.db, feed.key, from, batch)
            : await readUserEvents(this.db, feed.key, from, batch);
        for (const event of events) await this.deliver(feed, event, from);
        if (events.length < batch) break;
      }
      // Every stream has had the whole log now, unless one joined during the reads (again: they read once more, and
      // deliver left it out); one whose job had ended has nothing more to wait for.
      if (!feed.again) for (const stream of feed.streams) if (stream.ended) stream.res.end();
    } while (feed.again);
  }

  /**
   * One event to every stream of the feed that has not had it; a job's terminal status as `end`, then the close.
   * `from` is where the read that returned it began: a stream that joined during that read from further back (after <
   * from) would skip what lies between, so it waits for the next read (its wake asked for one), which begins at its
   * place.
   */
  private async deliver(feed: Feed, event: StoredJobEvent, from: number): Promise<void> {
    const id = feed.kind === 'job' ? event.seq : event.user_seq!;
    const waiting = [...feed.streams].filter((s) => s.after < id && s.after >= from);
    if (waiting.length === 0) return;
    const data = event.type === 'progress' ? event.data : { ...event.data, at: rfc3339(event.at) };
    const ends = feed.kind === 'job' && event.type === 'status' && terminalJob.has(event.data.status as string);
    let frame: string;
    if (ends) {
      const view = await readJob(this.db, feed.owner, feed.key);
      // Deleted since (DELETE /job, retention): nothing more to say.
      frame = view ? eventFrame(id, 'end', { job: { [feed.key]: renderJob(view, true) } }) : '';
    } else frame = eventFrame(id, event.type, data);
    for (const stream of waiting) {
      stream.after = id;
      if (frame) this.write(stream, frame);
      if (ends) stream.res.end();
    }
  }

  /** Writes to a stream whose client reads; one that has let `maxBufferedBytes` pile up is disconnected. */
  private write(stream: Stream, frame: string): void {
    const { res } = stream;
    if (res.writableEnded || res.destroyed) return;
    if (res.writableLength > maxBufferedBytes) {
      res.destroy();
      return;
    }
    res.write(frame);
    stream.lastWrite = performance.now();
    if (frame !== keepAliveFrame) this.db.metrics?.events.streamEvent();
  }
}
