// `createJesClient`: openapi-fetch over the contract's `paths`, a session that logs in lazily, and one
// helper per operation resolving to `{ data } | { error }`.
import createClient, { type Client } from 'openapi-fetch';
import type { paths } from '@jes/contract';
import { type OpenStream, readStream, type StreamOptions } from './event-stream.ts';
import { jobEvent, type JobEvent, userEvent, type UserEvent } from './job-events.ts';
import { pages } from './pages.ts';
import { inOrder, settle, unwrap } from './result.ts';
import type { RetryOptions } from './retry.ts';
import { type Credentials, Session } from './session.ts';
import { MAX_INLINE_BYTES, type StartedJob, type StartJobOptions, startJob } from './start-job.ts';
import type {
  DataFile,
  DataFileInput,
  DataFileStatus,
  Health,
  Job,
  JobOutputOf,
  JobStatus,
  LoginResponse,
  Page,
  ProblemId,
  ProblemInputs,
  Result,
  UseCase,
} from './types.ts';
import { uploadDataFile, type UploadOptions } from './upload.ts';
import { type WaitOptions, waitForJob } from './wait.ts';
import { webhookCalls, type WebhookCalls } from './webhooks.ts';

export interface JesClientOptions {
  /** The service's URL, for example `http://localhost:3000` (the sandbox: `http://localhost:4010`). */
  baseUrl: string;
  /**
   * Credentials for logging in lazily, and again once when the token is refused. `undefined` is taken as not given,
   * so `process.env.JES_USERNAME` can be passed as it is.
   */
  username?: string | undefined;
  password?: string | undefined;
  /** A token obtained earlier (used as is; with credentials too, renewed when refused). */
  token?: string;
  /** The `fetch` to send requests with (default: the global one). */
  fetch?: (request: Request) => Promise<Response>;
  /** Inline bodies of this many bytes or more are uploaded as data files (default 4 MiB, the contract's limit). */
  maxInlineBytes?: number;
  /** How starts and uploads are retried after a network failure, 502, 503 or 504 (each call may override it). */
  retry?: Omit<RetryOptions, 'signal'>;
}

export interface ListQuery<S> {
  status?: S;
  problemId?: string;
  /** Page size, 1 to 100 (default 20). */
  limit?: number;
  /** Start after this id (a page's last), as a page's link does: the listing resumes there. */
  startingAfter?: string;
}

export interface JesClient extends WebhookCalls {
  /** The underlying openapi-fetch client, typed by the contract, for anything the helpers do not cover. */
  readonly api: Client<paths>;
  /** The bearer token in use, once logged in. */
  readonly token: string | undefined;
  login(credentials?: Credentials): Promise<Result<LoginResponse>>;
  health(): Promise<Result<Health>>;
  listProblems(): Promise<Result<UseCase[]>>;
  getProblem(problemId: string): Promise<Result<UseCase>>;
  /** Starts a job; an input whose inline body would reach the limit is uploaded as a data file first. */
  startJob<P extends ProblemId>(
    problemId: P,
    input: ProblemInputs[P] | DataFileInput,
    options?: StartJobOptions,
  ): Promise<Result<StartedJob>>;
  /** The job; with `wait` (seconds) a long poll that answers when its status changes. */
  getJob(jobId: string, options?: { wait?: number; signal?: AbortSignal }): Promise<Result<Job>>;
  listJobs(query?: ListQuery<JobStatus>): AsyncGenerator<Result<Page<Job>>, void, undefined>;
  /** Waits for the job to end: on its event stream where the service has one, else by long polls. */
  waitForJob(jobId: string, options?: WaitOptions): Promise<Result<Job>>;
  /**
   * The job's events as they happen (GET /job/{job_id}/events), each a `Result`: `status`, `execution`, `progress`,
   * then `end` with the job, after which the iterator ends. Resumes by itself after a dropped connection.
   */
  jobEvents(jobId: string, options?: StreamOptions): AsyncGenerator<Result<JobEvent>, void, undefined>;
  /** The status changes of all your jobs from now on (GET /events); it never ends by itself: break, or abort. */
  events(options?: StreamOptions): AsyncGenerator<Result<UserEvent>, void, undefined>;
  /**
   * Each solver's output, typed as the use case `P`'s: `getOutput<'qubo'>(id)` for a QUBO job. `P` is the
   * caller's word (the answer does not name its use case; the job's `problem_id` does) and defaults to
   * `'maxcut'`, the first use case; `isQuboOutput` and `isMaxCutOutput` tell the shapes apart at run time.
   */
  getOutput<P extends ProblemId = 'maxcut'>(jobId: string): Promise<Result<JobOutputOf<P>>>;
  /**
   * The input the job was started with: the use case's inline JSON, parsed (`getInput<'qubo'>(id)` types it as a
   * QUBO's), or a string when the job was started from an edge-list or `.qubo` data file (its text as uploaded).
   */
  getInput<P extends ProblemId = 'maxcut'>(jobId: string): Promise<Result<ProblemInputs[P] | string>>;
  cancelJob(jobId: string): Promise<Result<Job>>;
  /** Deletes an ended job with its input and output (409 `job_not_finished` while it runs: cancel it first). */
  deleteJob(jobId: string): Promise<Result<{ deleted: string }>>;
  uploadDataFile(options: UploadOptions): Promise<Result<DataFile>>;
  getDataFile(identifier: string): Promise<Result<DataFile>>;
  deleteDataFile(identifier: string): Promise<Result<{ deleted: string }>>;
  listDataFiles(query?: ListQuery<DataFileStatus>): AsyncGenerator<Result<Page<DataFile>>, void, undefined>;
}

/**
 * The query of one page: the listing's filters and the page's cursor (not the query's own starting point), without
 * undefined members (the contract's optional parameters may be absent, not undefined).
 */
function listParams<S>(query: ListQuery<S>, startingAfter: string | undefined) {
  const { status, problemId, limit } = query;
  return {
    ...(status !== undefined ? { status } : {}),
    ...(problemId !== undefined ? { problem_id: problemId } : {}),
    ...(limit !== undefined ? { limit } : {}),
    ...(startingAfter !== undefined ? { starting_after: startingAfter } : {}),
  };
}

export function createJesClient(options: JesClientOptions): JesClient {
  const { baseUrl, username, password, token, fetch, maxInlineBytes = MAX_INLINE_BYTES, retry } = options;
  const retrying = retry ? { retry } : {};
  const api = createClient<paths>({ baseUrl, ...(fetch ? { fetch } : {}) });
  const session = new Session(
    api,
    username !== undefined && password !== undefined ? { username, password } : undefined,
    token,
  );
  const authed = session.authed.bind(session);

  const getJob: JesClient['getJob'] = (jobId, { wait, signal } = {}) =>
    authed(async () =>
      settle(
        await api.GET('/job/{job_id}', {
          params: { path: { job_id: jobId }, ...(wait !== undefined ? { header: { Prefer: `wait=${wait}` } } : {}) },
          ...(signal ? { signal } : {}),
        }),
        (data) => unwrap(data.job),
      ),
    );

  // A stream's request, with the token (logged in again once on invalid_token) and Last-Event-ID when resuming.
  const lastEvent = (id: string | undefined) => (id !== undefined ? { header: { 'Last-Event-ID': id } } : {});
  const openJobEvents =
    (jobId: string): OpenStream =>
    (id, signal) =>
      authed(async () =>
        settle(
          await api.GET('/job/{job_id}/events', {
            params: { path: { job_id: jobId }, ...lastEvent(id) },
            parseAs: 'stream',
            signal,
          }),
          (body) => body,
        ),
      );
  const openEvents: OpenStream = (id, signal) =>
    authed(async () =>
      settle(await api.GET('/events', { params: lastEvent(id), parseAs: 'stream', signal }), (body) => body),
    );
  const jobEvents: JesClient['jobEvents'] = (jobId, streamOptions) =>
    readStream(openJobEvents(jobId), jobEvent, (event) => event.event === 'end', streamOptions);

  return {
    api,
    get token() {
      return session.token;
    },
    login: (credentials) => session.login(credentials),
    health: async () => settle(await api.GET('/healthz'), (data) => data),
    listProblems: () =>
      authed(async () => settle(await api.GET('/problem'), (data) => inOrder(data.problem, data.ids))),
    getProblem: (problemId) =>
      authed(async () =>
        settle(await api.GET('/problem/{problem_id}', { params: { path: { problem_id: problemId } } }), (data) => data),
      ),
    startJob: (problemId, input, startOptions) =>
      startJob(api, session, maxInlineBytes, problemId, input, { ...retrying, ...startOptions }),
    getJob,
    listJobs: (query = {}) =>
      pages(
        (after) =>
          authed(async () =>
            settle(await api.GET('/job', { params: { query: listParams(query, after) } }), (data) => ({
              items: inOrder(data.job, data.ids),
              hasMore: data.has_more,
            })),
          ),
        query.startingAfter,
      ),
    waitForJob: (jobId, waitOptions) => waitForJob(getJob, jobId, waitOptions, jobEvents),
    jobEvents,
    events: (streamOptions) => readStream(openEvents, userEvent, () => false, streamOptions),
    ...webhookCalls(api, session),
    getOutput: <P extends ProblemId>(jobId: string) =>
      authed(async () =>
        settle(
          await api.GET('/job/{job_id}/output', { params: { path: { job_id: jobId } } }),
          // The caller names the use case (see JesClient.getOutput): the contract's answer holds any use case's.
          (data) => data as JobOutputOf<P>,
        ),
      ),
    getInput: <P extends ProblemId>(jobId: string) =>
      authed(async () => {
        // Read as text: the answer is JSON or an edge list, told apart by its Content-Type (as is a problem).
        const answer = await api.GET('/job/{job_id}/input', { params: { path: { job_id: jobId } }, parseAs: 'text' });
        const json = /[/+]json\b/.test(answer.response.headers.get('content-type') ?? '');
        const parsed = (text: unknown) => (json && typeof text === 'string' ? JSON.parse(text) : text);
        return settle({ ...answer, error: parsed(answer.error) }, (text) => parsed(text) as ProblemInputs[P] | string);
      }),
    cancelJob: (jobId) =>
      authed(async () =>
        settle(await api.POST('/job/{job_id}/cancel', { params: { path: { job_id: jobId } } }), (data) =>
          unwrap(data.job),
        ),
      ),
    deleteJob: (jobId) =>
      authed(async () =>
        settle(await api.DELETE('/job/{job_id}', { params: { path: { job_id: jobId } } }), () => ({ deleted: jobId })),
      ),
    uploadDataFile: (uploadOptions) => uploadDataFile(api, session, { ...retrying, ...uploadOptions }),
    getDataFile: (identifier) =>
      authed(async () =>
        settle(
          await api.GET('/data_file/{data_file_identifier}', {
            params: { path: { data_file_identifier: identifier } },
          }),
          (data) => unwrap(data.data_file),
        ),
      ),
    deleteDataFile: (identifier) =>
      authed(async () =>
        settle(
          await api.DELETE('/data_file/{data_file_identifier}', {
            params: { path: { data_file_identifier: identifier } },
          }),
          () => ({ deleted: identifier }),
        ),
      ),
    listDataFiles: (query = {}) =>
      pages(
        (after) =>
          authed(async () =>
            settle(await api.GET('/data_file', { params: { query: listParams(query, after) } }), (data) => ({
              items: inOrder(data.data_file, data.ids),
              hasMore: data.has_more,
            })),
          ),
        query.startingAfter,
      ),
  };
}
