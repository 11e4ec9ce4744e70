// One job: its status and timestamps (as the API gives them, and in this browser's time zone), each execution,
// the best value over time (its whole history, live while it runs), and the answer: for max cut the graph (read back
// with getJobInput) drawn with its two sides and cut edges, or a summary when it is too large, the cut value and
// whether it is proven optimal; for QUBO the assignment and its energy. The page follows the job on its event stream,
// or by long polls where the service has none (use-job.ts), until it has ended.
import type { Execution, Job, Problem } from '@jes/client';
import { bestOf, isTerminal, objectiveOf } from '@jes/client';
import { useEffect, useMemo, useState } from 'preact/hooks';
import { Layout } from '../parts/layout.tsx';
import { ProblemBox } from '../parts/problem-box.tsx';
import { CutDrawing, drawable } from '../parts/cut-drawing.tsx';
import { ProgressChart } from '../parts/progress-chart.tsx';
import { Table } from '../parts/table.tsx';
import { linesOf } from '../best-over-time.ts';
import { bytes, localTime, number } from '../format.ts';
import { graphOf, type Graph } from '../graphs.ts';
import { client } from '../session.ts';
import { settled } from '../use-call.ts';
import { type Live, useJob } from '../use-job.ts';

interface MaxCutData {
  cut_value: number;
  partition: number[];
  optimal: boolean;
  upper_bound?: number;
}
interface QuboData {
  energy: number;
  assignment: number[];
  optimal: boolean;
}

function Timestamps({ job }: { job: Job }) {
  const rows = Object.entries(job.timestamps ?? {}).filter((row): row is [string, string] => Boolean(row[1]));
  return (
    <Table
      name="timestamps"
      rows={rows}
      keyOf={([name]) => name}
      columns={[
        ['Moment', ([name]) => name],
        ['As the API gives it (UTC)', ([, at]) => <code>{at}</code>],
        ['Your local time', ([, at]) => localTime(at)],
      ]}
    />
  );
}

const seconds = (value: number | null | undefined) => (value === undefined || value === null ? '—' : `${value} s`);

function Executions({ job }: { job: Job }) {
  return (
    <Table
      name="executions"
      rows={Object.entries<Execution>(job.executions)}
      keyOf={([solver]) => solver}
      columns={[
        ['Solver', ([solver]) => <code>{solver}</code>],
        ['Status', ([, e]) => <span class={`status ${e.status}`}>{e.status}</span>],
        ['Best value', ([, e]) => number(e.best_value)],
        ['Progress', ([, e]) => (e.progress === undefined ? '—' : `${Math.round(e.progress * 100)} %`)],
        ['Duration', ([, e]) => seconds(e.duration_seconds)],
        ['Error', ([, e]) => (e.error ? `${e.error.code}: ${e.error.detail}` : '—')],
      ]}
    />
  );
}

/** The best successful execution's answer: the largest cut, or the lowest energy. */
function bestAnswer(job: Job): { solver: string; data: Record<string, any> } | undefined {
  const done = Object.entries<Execution>(job.executions).filter(([, e]) => e.status === 'SUCCESS' && e.data);
  if (done.length === 0) return undefined;
  const best = bestOf(job.problem_id)(...done.map(([, e]) => objectiveOf(e.data!)));
  const [solver, e] = done.find(([, e]) => objectiveOf(e.data!) === best)!;
  return { solver, data: e.data as Record<string, any> };
}

/** Inputs up to this size are read to draw the cut (a denser one has too many edges to draw anyway). */
const drawnInputBytes = 8 * 1024 * 1024;

function MaxCutAnswer({ job, solver, data }: { job: Job; solver: string; data: MaxCutData }) {
  const [graph, setGraph] = useState<Graph | 'unread' | 'failed'>();
  const [drawnMs, setDrawnMs] = useState<number>();
  useEffect(() => {
    if (job.input.bytes > drawnInputBytes) return setGraph('unread');
    void settled(() => client().getInput(job.id)).then((input) =>
      setGraph(input.data ? (graphOf(input.data) ?? 'failed') : 'failed'),
    );
  }, [job.id]);
  const sides = [data.partition.filter((s) => s !== 1).length, data.partition.filter((s) => s === 1).length];
  return (
    <section>
      <h2>The answer ({solver})</h2>
      <p class="answer">
        Cut value <strong data-testid="cut-value">{number(data.cut_value)}</strong>,{' '}
        {data.optimal
          ? 'proven optimal'
          : `not proven optimal${data.upper_bound !== undefined ? ` (upper bound ${number(data.upper_bound)})` : ''}`}
        . Sides of {sides[0]} and {sides[1]} nodes.
      </p>
      {typeof graph === 'object' && drawable(graph) ? (
        <>
          <CutDrawing graph={graph} partition={data.partition} onDrawn={setDrawnMs} />
          {drawnMs !== undefined && (
            <p class="hint" data-testid="drawn">
              Drawn in {Math.round(drawnMs)} ms.
            </p>
          )}
        </>
      ) : (
        graph !== undefined && (
          <p class="hint">
            {typeof graph === 'object'
              ? `The graph (${graph.nodes.toLocaleString()} nodes, ${(graph.edges.length / 3).toLocaleString()} edges) is too large to draw here; the summary above says how it is cut.`
              : graph === 'unread'
                ? `The input (${bytes(job.input.bytes)}) is too large to draw here; the summary above says how it is cut.`
                : 'The input could not be read, so the graph is not drawn.'}
          </p>
        )
      )}
    </section>
  );
}

function QuboAnswer({ solver, data }: { solver: string; data: QuboData }) {
  return (
    <section>
      <h2>The answer ({solver})</h2>
      <p class="answer">
        Energy <strong>{number(data.energy)}</strong>, {data.optimal ? 'proven optimal' : 'not proven optimal'}.
      </p>
      <p>Assignment:</p>
      <pre class="example">
        <code>{data.assignment.join(' ')}</code>
      </pre>
    </section>
  );
}

async function download(id: string, setProblem: (p: Problem) => void) {
  const output = await settled(() => client().getOutput(id));
  if (output.error) return setProblem(output.error);
  if (!output.data) return;
  const url = URL.createObjectURL(new Blob([JSON.stringify(output.data, null, 2)], { type: 'application/json' }));
  const link = Object.assign(document.createElement('a'), { href: url, download: `job-${id}-output.json` });
  link.click();
  setTimeout(() => URL.revokeObjectURL(url), 1000);
}

/** How the page hears of the job, in words, while it runs. */
const liveness: Record<Live, string> = {
  stream: 'Live: shown as it happens.',
  polling: 'Read again every second.',
  reconnecting: 'Reconnecting to the service…',
};

export function JobPage({ id }: { id: string }) {
  const [refused, setProblem] = useState<Problem>();
  const { job, problem: unread, live } = useJob(id);
  const problem = refused ?? unread;
  const lines = useMemo(() => (job ? linesOf(job) : []), [job]);

  const cancel = async () => {
    const answer = await settled(() => client().cancelJob(id));
    // The cancellation shows as the page follows the job (its stream, or its reads), like any other change.
    if (answer.error) setProblem(answer.error);
  };

  const answer = job && bestAnswer(job);
  return (
    <Layout section="jobs" title={`Job ${id}`}>
      {problem && <ProblemBox problem={problem} />}
      {job && (
        <>
          <p class="job-head">
            <span class={`status ${job.status}`} data-testid="job-status">
              {job.status}
            </span>{' '}
            <code>{job.problem_id}</code>, input{' '}
            {job.input.mode === 'inline' ? (
              'inline'
            ) : (
              <>
                data file <code>{job.input.data_file_identifier}</code>
              </>
            )}{' '}
            of {bytes(job.input.bytes)}
            {live && !isTerminal(job.status) && (
              <span class="hint live" data-testid="live" data-live={live}>
                {' '}
                {liveness[live]}
              </span>
            )}
            {!isTerminal(job.status) && (
              <button type="button" onClick={cancel}>
                Cancel the job
              </button>
            )}
            {job.status === 'FINISHED' && (
              <button type="button" onClick={() => void download(id, setProblem)}>
                Download the output (JSON)
              </button>
            )}
          </p>
          {job.error && <ProblemBox problem={job.error} />}
          <Timestamps job={job} />
          <h2>Executions</h2>
          <Executions job={job} />
          <h2>Best value over time</h2>
          <ProgressChart lines={lines} ended={isTerminal(job.status)} />
          {answer &&
            (job.problem_id === 'qubo' ? (
              <QuboAnswer solver={answer.solver} data={answer.data as QuboData} />
            ) : (
              <MaxCutAnswer job={job} solver={answer.solver} data={answer.data as MaxCutData} />
            ))}
        </>
      )}
    </Layout>
  );
}
