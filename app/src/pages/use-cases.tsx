// The use cases the service runs, and each one's detail page: what it solves, the input format rendered from the
// JSON Schema the API serves, the size limits and data-file formats, the solvers with their defaults, and an
// example input to copy or start a job with.
import { Layout } from '../parts/layout.tsx';
import { ProblemBox } from '../parts/problem-box.tsx';
import { SchemaView } from '../parts/schema-view.tsx';
import { Table } from '../parts/table.tsx';
import { bytes, compactJson } from '../format.ts';
import { href } from '../route.ts';
import { client } from '../session.ts';
import { useCall } from '../use-call.ts';

export function UseCasesPage() {
  const list = useCall(() => client().listProblems(), []);
  return (
    <Layout section="use-cases" title="Use cases">
      {list.error && <ProblemBox problem={list.error} />}
      {!list.data && !list.error && <p aria-busy="true">Loading…</p>}
      <ul class="cards">
        {list.data?.map((useCase) => (
          <li key={useCase.id}>
            <h2>
              <a href={href(`/use-cases/${useCase.id}`)}>{useCase.name}</a> <code>{useCase.id}</code>
            </h2>
            <p>{useCase.description}</p>
            <a class="button" href={href(`/new/${useCase.id}`)}>
              New {useCase.id} job
            </a>
          </li>
        ))}
      </ul>
    </Layout>
  );
}

/** Solver parameters every solver takes (the contract's SolverChoice.params). */
const solverParams = [
  ['seed', 'integer, 0 to 2,147,483,647', 'Seeds the random choices; without it the service draws one.'],
  ['max_iterations', 'integer ≥ 1', "Stop after this many iterations (in the solver's own unit) or at the time limit."],
] as const;

export function UseCasePage({ id }: { id: string }) {
  const useCase = useCall(() => client().getProblem(id), [id]);
  const data = useCase.data;
  const example = data ? compactJson(data.example_input) : '';
  return (
    <Layout section="use-cases" title={data ? `${data.name} (${data.id})` : `Use case ${id}`}>
      {useCase.error && <ProblemBox problem={useCase.error} />}
      {data && (
        <>
          <p class="lead">{data.description}</p>
          <p>
            <a class="button" href={href(`/new/${data.id}`)}>
              Start a {data.id} job
            </a>
          </p>
          <section>
            <h2>Input format</h2>
            <p>
              Inline bodies must be smaller than <strong>{bytes(data.max_inline_bytes)}</strong> (
              {data.max_inline_bytes.toLocaleString()} bytes); larger inputs go as a data file of at most{' '}
              <strong>{bytes(data.max_data_file_bytes)}</strong>. Data-file formats:{' '}
              {data.data_file_formats.map((f, i) => (
                <span key={f}>
                  {i > 0 && ', '}
                  <code>{f}</code>
                </span>
              ))}
              .
            </p>
            <SchemaView schema={data.input_schema} />
          </section>
          <section>
            <h2>Example input</h2>
            <pre class="example">
              <code>{example}</code>
            </pre>
            <button type="button" onClick={() => void navigator.clipboard?.writeText(example)}>
              Copy the example
            </button>
          </section>
          <section>
            <h2>Solvers</h2>
            <Table
              name="solvers"
              rows={data.solvers}
              keyOf={(s) => s.name}
              columns={[
                ['Solver', (s) => <code>{s.name}</code>],
                ['What it does', (s) => s.description],
                ['Proves optimality', (s) => (s.exact ? 'yes' : 'no')],
                ['Runs by default', (s) => (s.default ? 'yes' : 'no')],
                ['Default time limit', (s) => `${s.default_time_limit_seconds} s`],
                ['Largest input', (s) => s.max_nodes ?? 'unlimited'],
              ]}
            />
            <h3>Parameters of every solver</h3>
            <ul class="fields">
              {solverParams.map(([name, type, description]) => (
                <li key={name}>
                  <code class="field">{name}</code> <span class="type">{type}</span>, optional
                  <p class="description">{description}</p>
                </li>
              ))}
            </ul>
          </section>
          <section>
            <h2>Output format</h2>
            <SchemaView schema={data.output_schema} />
          </section>
        </>
      )}
    </Layout>
  );
}
