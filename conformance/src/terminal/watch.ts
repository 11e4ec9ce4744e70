// terminal_states' record of the run, kept as answers come (http.ts tells it of each): the first reading of every
// job once it has ended, in each form (diff.ts), and every job and data file the run deleted. A later
// answer that contradicts them, whichever check asked, is a failure: an ended job read otherwise (another status,
// another result, instants moved), said not to have ended (409 job_not_finished), or a deleted one there again.
// Only an answer to a request sent after the reading it contradicts had come counts: two requests in flight at once
// may be answered in either order. A 404 for an ended job the run did not delete is the deployment's retention at
// work (the contract lets it delete ended jobs once its retention period has passed), not a change: it is noted, and
// from then on the job must stay gone as a deleted one must.
import { answered, shown } from '../answer-text.ts';
import { terminalJobStatuses } from '../jobs.ts';
import { sentOf } from '../sent.ts';
import { jobDifferences, type JobForm } from './diff.ts';
import { type Kind, notFoundCode, type Reading, readingsOf } from './readings.ts';
import type { Exchange, Failure } from '../types.ts';

export type User = 'user' | 'user2';

/** A reading of an ended job: what it showed, the exchange, and when its answer had come (performance.now()). */
interface Sighting {
  value: any;
  form: JobForm;
  exchange: Exchange;
  at: number;
}

export interface EndedJob {
  id: string;
  user: User;
  /** The first reading of each form once it had ended. */
  forms: Map<JobForm, Sighting>;
  /** When terminal_states last re-read it (at first: when it was seen ended), to choose whom to re-read next. */
  reread: number;
}

export interface GoneOne {
  kind: Kind;
  id: string;
  user: User;
  /** Deleted by the run (its DELETE answered 204), or answered 404 though the run had not deleted it. */
  how: 'deleted' | 'absent';
  exchange: Exchange;
  at: number;
  reread: number;
}

const named = (kind: Kind) => (kind === 'job' ? 'job' : 'data file');

/** The request as messages name it: `GET /job/K7Q2M9X4TB1R/output` (with the query of a listing), and its check. */
function request(exchange: Exchange): string {
  const url = new URL(exchange.request.url);
  return `${exchange.request.method} ${url.pathname}${url.search} (${exchange.check})`;
}

/** A value as a message shows it, shortened (a partition is long). */
function brief(value: unknown): string {
  const text = shown(value);
  return text.length > 80 ? `${text.slice(0, 80)}…` : text;
}

export class TerminalWatch {
  readonly failures: Failure[] = [];
  readonly notes: string[] = [];
  /** Jobs seen ended in all, and jobs and data files the run deleted in all (re-appeared or not). */
  endedSeen = 0;
  deletedSeen = 0;
  private readonly ended = new Map<string, EndedJob>();
  private readonly gone = new Map<string, GoneOne>();
  /** What was reported once (a job that changed, a deleted one back): later contradictions of it are only counted. */
  private readonly reported = new Set<string>();
  private repeated = 0;
  private readonly baseUrl: string;

  constructor(baseUrl: string) {
    this.baseUrl = baseUrl;
  }

  /** An answer came whole: its request went out at `sentAt`, the answer had come at `at` (performance.now()). */
  seen(exchange: Exchange, sentAt: number, at = performance.now()): void {
    const user = sentOf(exchange)?.user;
    if (!user) return;
    for (const reading of readingsOf(exchange, this.baseUrl)) this.read(reading, user, exchange, sentAt, at);
  }

  /** Ended jobs still there, least recently re-read first. */
  endedJobs(): EndedJob[] {
    return [...this.ended.values()].sort((a, b) => a.reread - b.reread);
  }

  /** Jobs and data files gone, least recently re-read first. */
  goneOnes(): GoneOne[] {
    return [...this.gone.values()].sort((a, b) => a.reread - b.reread);
  }

  fail(message: string, exchange: Exchange): void {
    this.failures.push({ message, exchange });
  }

  /** A line on what was counted and not reported again, when anything was. */
  repeatedNote(): string | undefined {
    return this.repeated
      ? `${this.repeated} more answer${this.repeated === 1 ? '' : 's'} contradicted a job or data file already reported above`
      : undefined;
  }

  private once(key: string, message: string, exchange: Exchange): void {
    if (this.reported.has(key)) this.repeated++;
    else {
      this.reported.add(key);
      this.fail(message, exchange);
    }
  }

  private read(reading: Reading, user: User, exchange: Exchange, sentAt: number, at: number): void {
    const kind: Kind = 'kind' in reading ? reading.kind : 'job';
    const key = `${user} ${kind} ${reading.id}`;
    switch (reading.what) {
      case 'shown':
        this.there(key, exchange, sentAt);
        this.shown(key, reading, user, exchange, sentAt, at);
        return;
      case 'there':
        return this.there(key, exchange, sentAt);
      case 'unended':
        this.there(key, exchange, sentAt);
        return this.unended(key, exchange, sentAt);
      case 'absent':
        return this.absent(key, reading.kind, reading.id, user, exchange, at);
      case 'deleted':
        this.there(key, exchange, sentAt);
        this.deletedSeen++;
        this.ended.delete(key);
        this.gone.set(key, { kind, id: reading.id, user, how: 'deleted', exchange, at, reread: at });
        return;
      case 'made':
        // The same bytes uploaded again: a data file's identifier is its bytes' digest, so it is back by right.
        this.gone.delete(key);
        return;
    }
  }

  /** An answer that could only come from the job or data file: a failure when it had gone before the request. */
  private there(key: string, exchange: Exchange, sentAt: number): void {
    const gone = this.gone.get(key);
    if (!gone || sentAt <= gone.at) return;
    const before =
      gone.how === 'deleted'
        ? `its deletion (${request(gone.exchange)} answered 204)`
        : `it was gone (${request(gone.exchange)} answered ${answered(gone.exchange.response!)})`;
    const now =
      exchange.operationId === 'listJobs' || exchange.operationId === 'listDataFiles'
        ? `${request(exchange)} lists it`
        : `${request(exchange)} answered ${answered(exchange.response!)}`;
    this.once(`${key} back`, `${named(gone.kind)} ${gone.id} is back after ${before}: ${now}`, exchange);
  }

  private shown(
    key: string,
    reading: Extract<Reading, { what: 'shown' }>,
    user: User,
    exchange: Exchange,
    sentAt: number,
    at: number,
  ): void {
    const sighting: Sighting = { value: reading.value, form: reading.form, exchange, at };
    const job = this.ended.get(key);
    const terminal = terminalJobStatuses.has(reading.value?.status);
    if (!job) {
      if (!terminal || this.gone.has(key)) return;
      this.endedSeen++;
      this.ended.set(key, { id: reading.id, user, forms: new Map([[reading.form, sighting]]), reread: at });
      return;
    }
    for (const then of job.forms.values()) {
      if (sentAt <= then.at) continue;
      const differences = jobDifferences(then.value, then.form, reading.value, reading.form);
      if (!differences.length) continue;
      const listed = differences
        .slice(0, 4)
        .map((d) => `${d.path} was ${brief(d.then)}, now ${brief(d.now)}`)
        .join('; ');
      const others = differences.length > 4 ? ` (and ${differences.length - 4} more fields)` : '';
      this.once(
        `${key} changed`,
        `job ${reading.id} changed after it ended ${then.value?.status}: ${listed}${others}; read by ${request(then.exchange)}, then ${((at - then.at) / 1000).toFixed(1)} s later by ${request(exchange)}`,
        exchange,
      );
      break;
    }
    if (terminal && !job.forms.has(reading.form)) job.forms.set(reading.form, sighting);
  }

  /** 409 job_not_finished: a failure for a job seen ended before the request. */
  private unended(key: string, exchange: Exchange, sentAt: number): void {
    const job = this.ended.get(key);
    const then = [...(job?.forms.values() ?? [])].find((s) => s.at < sentAt);
    if (!job || !then) return;
    this.once(
      `${key} changed`,
      `job ${job.id} ended ${then.value?.status} (read by ${request(then.exchange)}), then ${request(exchange)} answered ${answered(exchange.response!)}: the deployment says it has not ended`,
      exchange,
    );
  }

  private absent(key: string, kind: Kind, id: string, user: User, exchange: Exchange, at: number): void {
    const job = this.ended.get(key);
    if (this.gone.has(key) || !job) return;
    this.ended.delete(key);
    this.gone.set(key, { kind, id, user, how: 'absent', exchange, at, reread: at });
    const status = [...job.forms.values()][0]?.value?.status;
    this.notes.push(
      `job ${id}, seen ${status}, answered 404 ${notFoundCode[kind]} to ${request(exchange)} though the run did not delete it: taken as the deployment's retention (the contract lets it delete ended jobs once their retention period has passed), not as a change; it must stay gone from then on`,
    );
  }
}
