// terminal_states' watch on answers as the run gets them (no deployment: the exchanges are written here, their
// timing too): what counts as a change of an ended job and what does not, the order of requests in flight, deletions
// and the retention's 404s. broken.test.ts runs the check against a deployment that breaks each promise.
import { describe, expect, it } from 'vitest';
import { recordSent } from '../src/sent.ts';
import { jobDifferences } from '../src/terminal/diff.ts';
import { TerminalWatch } from '../src/terminal/watch.ts';
import type { Exchange } from '../src/types.ts';

const base = 'http://deployment.test/api';
const id = 'K7Q2M9X4TB1R';
const file = 'd6e02699b78918a5032ec7a872e2de7800c3a15a';

function exchange(
  operationId: string,
  method: string,
  path: string,
  status: number,
  json?: unknown,
  user: 'user' | 'user2' = 'user',
): Exchange {
  const made: Exchange = {
    check: 'some_check',
    operationId,
    request: { method, url: `${base}${path}`, headers: {} },
    response: { status, headers: {}, text: json === undefined ? '' : JSON.stringify(json), json, ms: 1 },
  };
  recordSent(made, { user, headers: {} });
  return made;
}

const finished = {
  status: 'FINISHED',
  started_at: '11/22/2026, 14:03:07',
  end_at: '11/22/2026, 14:03:09',
  executions: {
    exact: {
      status: 'SUCCESS',
      duration_seconds: 1.2,
      data: { cut_value: 12, partition: [0, 1, 1], optimal: true },
      progress_history: [{ seconds: 0.1, best_value: 12 }],
      timestamps: { created: '2026-11-22T14:03:07.412Z', running: null, ended: '2026-11-22T14:03:09.000Z' },
    },
  },
  timestamps: { submitted: '2026-11-22T14:03:07.412Z', ended: '2026-11-22T14:03:09.000Z' },
  links: { self: `/job/${id}` },
};

const read = (job: unknown, user: 'user' | 'user2' = 'user') =>
  exchange('getJob', 'GET', `/job/${id}`, 200, { job: { [id]: job } }, user);

/** The watch after `answers`, each [exchange, sent at, answered at] in the order they came. */
function watched(...answers: [Exchange, number, number][]): TerminalWatch {
  const watch = new TerminalWatch(base);
  for (const [made, sentAt, at] of answers) watch.seen(made, sentAt, at);
  return watch;
}

describe('an ended job', () => {
  it('read RUNNING by a request sent after its end was read fails, naming the job, the field, then and now', () => {
    const watch = watched([read(finished), 0, 1], [read({ ...finished, status: 'RUNNING' }), 2, 3]);
    expect(watch.failures.map((f) => f.message)).toEqual([
      expect.stringMatching(
        /^job K7Q2M9X4TB1R changed after it ended FINISHED: status was "FINISHED", now "RUNNING"; read by GET \/api\/job\/K7Q2M9X4TB1R \(some_check\), then 0\.0 s later by GET/,
      ),
    ]);
    expect(watch.failures[0]!.exchange?.response?.json).toMatchObject({ job: { [id]: { status: 'RUNNING' } } });
  });

  it('read RUNNING by a request sent before its end was read does not: both were in flight', () => {
    expect(watched([read(finished), 0, 2], [read({ ...finished, status: 'RUNNING' }), 1, 3]).failures).toEqual([]);
  });

  it('keeps its output, its instants and its progress history', () => {
    const cut = structuredClone(finished);
    cut.executions.exact.data.partition[2] = 0;
    const moved = structuredClone(finished);
    moved.timestamps.ended = '2026-11-22T14:03:10.000Z';
    const history = structuredClone(finished);
    history.executions.exact.progress_history.push({ seconds: 0.2, best_value: 13 });
    for (const changed of [cut, moved, history])
      expect(watched([read(finished), 0, 1], [read(changed), 2, 3]).failures).toHaveLength(1);
    expect(jobDifferences(finished, 'job', moved, 'job')).toEqual([
      { path: 'timestamps.ended', then: '2026-11-22T14:03:09.000Z', now: '2026-11-22T14:03:10.000Z' },
    ]);
  });

  it('may come with its members in another order, its instants written otherwise and other links', () => {
    const same = {
      links: { self: `/v2/job/${id}`, events: `/v2/job/${id}/events` },
      ...Object.fromEntries(Object.entries(finished).reverse()),
      timestamps: { ended: '2026-11-22T14:03:09Z', submitted: '2026-11-22T15:03:07.412+01:00' },
    };
    expect(watched([read(finished), 0, 1], [read(same), 2, 3]).failures).toEqual([]);
  });

  it('is held in listings to what they show (no data, no progress history), and its output to its status', () => {
    const { data: _, progress_history: __, ...listedExecution } = finished.executions.exact;
    const listed = { ...finished, executions: { exact: listedExecution } };
    const page = (job: unknown) =>
      exchange('listJobs', 'GET', '/job?limit=100', 200, { job: { [id]: job }, ids: [id] });
    const output = (status: string) =>
      exchange('getJobOutput', 'GET', `/job/${id}/output`, 200, { job: id, status, outputs: {} });
    expect(watched([read(finished), 0, 1], [page(listed), 2, 3], [output('FINISHED'), 4, 5]).failures).toEqual([]);
    const changed = watched(
      [read(finished), 0, 1],
      [page({ ...listed, status: 'RUNNING' }), 2, 3],
      [output('CANCELLED'), 4, 5],
    );
    expect(changed.failures.map((f) => f.message)).toEqual([
      expect.stringMatching(/status was "FINISHED", now "RUNNING"; .* then .* by GET \/api\/job\?limit=100/),
    ]);
    expect(changed.repeatedNote()).toMatch(/^1 more answer contradicted/);
  });

  it('said not to have ended (409 job_not_finished) fails', () => {
    const refused = exchange('deleteJob', 'DELETE', `/job/${id}`, 409, { code: 'job_not_finished' });
    expect(watched([read(finished), 0, 1], [refused, 2, 3]).failures.map((f) => f.message)).toEqual([
      expect.stringMatching(/answered 409 job_not_finished: the deployment says it has not ended$/),
    ]);
  });

  it('answering 404 without a deletion is the retention, noted; back after it fails', () => {
    const notFound = exchange('getJob', 'GET', `/job/${id}`, 404, { code: 'job_not_found' });
    const watch = watched([read(finished), 0, 1], [notFound, 2, 3]);
    expect(watch.failures).toEqual([]);
    expect(watch.notes).toEqual([expect.stringMatching(/taken as the deployment's retention/)]);
    watch.seen(read(finished), 4, 5);
    expect(watch.failures.map((f) => f.message)).toEqual([
      expect.stringMatching(/^job K7Q2M9X4TB1R is back after it was gone \(GET .* answered 404 job_not_found\)/),
    ]);
  });

  it("is another user's business for the second user (isolation's 404s)", () => {
    const notFound = exchange('getJob', 'GET', `/job/${id}`, 404, { code: 'job_not_found' }, 'user2');
    const watch = watched([read(finished), 0, 1], [notFound, 2, 3], [read(finished), 4, 5]);
    expect([watch.failures, watch.notes]).toEqual([[], []]);
  });
});

describe('a deleted data file', () => {
  const deleted = exchange('deleteDataFile', 'DELETE', `/data_file/${file}`, 204);
  const listed = exchange('listDataFiles', 'GET', '/data_file', 200, { data_file: { [file]: {} }, ids: [file] });

  it('listed again fails', () => {
    expect(watched([deleted, 0, 1], [listed, 2, 3]).failures.map((f) => f.message)).toEqual([
      `data file ${file} is back after its deletion (DELETE /api/data_file/${file} (some_check) answered 204): GET /api/data_file (some_check) lists it`,
    ]);
  });

  it('uploaded again is back by right (its identifier is its bytes’ digest)', () => {
    const uploaded = exchange('uploadDataFile', 'POST', '/data_file', 201, { data_file_identifier: file });
    expect(watched([deleted, 0, 1], [uploaded, 2, 3], [listed, 4, 5]).failures).toEqual([]);
  });
});
