// The jobs, newest first, a page at a time, filtered by status and use case. Live without a tight timer: the page
// follows the user's event stream, or long polls where the service has none (use-jobs-live.ts), and reads the page
// again when a job changes. Each job's best value is the largest cut or lowest energy so far, as `jes jobs` shows it.
// Cancel from the list.
import type { JobStatus } from '@jes/client';
import { bestValue, isTerminal } from '@jes/client';
import { Layout } from '../parts/layout.tsx';
import { ProblemBox } from '../parts/problem-box.tsx';
import { Table } from '../parts/table.tsx';
import { localTime, number } from '../format.ts';
import { go, href } from '../route.ts';
import { client } from '../session.ts';
import { onePage, settled, useCall } from '../use-call.ts';
import { useJobsLive } from '../use-jobs-live.ts';

const statuses: JobStatus[] = ['PENDING', 'RUNNING', 'FINISHED', 'ERROR', 'CANCELLED'];

/** The page the query asks for: 20 jobs, after the `after` one, with its filters. */
function listPage(query: URLSearchParams) {
  const status = query.get('status') as JobStatus | null;
  const problemId = query.get('problem');
  const startingAfter = query.get('after');
  return onePage(
    client().listJobs({
      limit: 20,
      ...(status ? { status } : {}),
      ...(problemId ? { problemId } : {}),
      ...(startingAfter ? { startingAfter } : {}),
    }),
  );
}

export function JobsPage({ query }: { query: URLSearchParams }) {
  const page = useCall(() => listPage(query), [query.toString()]);
  const live = useJobsLive(page.data?.items, page.reload);

  const filter = (name: string, value: string) => {
    const next = new URLSearchParams(query);
    if (value) next.set(name, value);
    else next.delete(name);
    next.delete('after');
    go(`/jobs?${next}`);
  };
  const cancel = async (id: string) => {
    await settled(() => client().cancelJob(id));
    page.reload();
  };
  const last = page.data?.items.at(-1);

  return (
    <Layout section="jobs" title="Jobs">
      <form class="filters" onSubmit={(e) => e.preventDefault()}>
        <label>
          Status
          <select value={query.get('status') ?? ''} onChange={(e) => filter('status', e.currentTarget.value)}>
            <option value="">any</option>
            {statuses.map((s) => (
              <option key={s}>{s}</option>
            ))}
          </select>
        </label>
        <label>
          Use case
          <select value={query.get('problem') ?? ''} onChange={(e) => filter('problem', e.currentTarget.value)}>
            <option value="">any</option>
            <option value="maxcut">maxcut</option>
            <option value="qubo">qubo</option>
          </select>
        </label>
        <a class="button" href={href('/new/maxcut')}>
          New job
        </a>
      </form>
      {page.error && <ProblemBox problem={page.error} />}
      {page.data && page.data.items.length === 0 && <p>No jobs here yet.</p>}
      {page.data && page.data.items.length > 0 && (
        <Table
          name="jobs"
          rows={page.data.items}
          keyOf={(job) => job.id}
          columns={[
            [
              'Job',
              (job) => (
                <a href={href(`/jobs/${job.id}`)}>
                  <code>{job.id}</code>
                </a>
              ),
            ],
            ['Use case', (job) => job.problem_id],
            ['Status', (job) => <span class={`status ${job.status}`}>{job.status}</span>],
            ['Submitted (local time)', (job) => localTime(job.timestamps?.submitted)],
            ['Executions', (job) => `${job.summary.succeeded}/${job.summary.total} succeeded`],
            ['Best value', (job) => number(bestValue(job))],
            [
              '',
              (job) =>
                !isTerminal(job.status) && (
                  <button type="button" onClick={() => void cancel(job.id)}>
                    Cancel <span class="visually-hidden">job {job.id}</span>
                  </button>
                ),
            ],
          ]}
        />
      )}
      {live && (
        <p class="hint" data-testid="live" data-live={live}>
          {live === 'stream'
            ? 'Live: the list follows your jobs as they change.'
            : 'The list is read again when one of its jobs changes.'}
        </p>
      )}
      <nav class="pager" aria-label="Pages">
        {query.get('after') && (
          <a href={href(`/jobs?${new URLSearchParams([...query].filter(([k]) => k !== 'after'))}`)}>First page</a>
        )}
        {page.data?.hasMore && last && (
          <a href={href(`/jobs?${new URLSearchParams({ ...Object.fromEntries(query), after: last.id })}`)}>Next page</a>
        )}
      </nav>
    </Layout>
  );
}
