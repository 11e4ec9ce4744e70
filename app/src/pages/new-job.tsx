// Start a job: paste the input as JSON or drop a file on the box (or start from a data file already uploaded),
// choose the solvers and the time limit. An input of 4 MiB or more is uploaded as a data file by the client,
// with the upload's progress shown; the service's problems are shown beside the input, each with its JSON pointer.
import type { Problem, ProblemId } from '@jes/client';
import { MAX_INLINE_BYTES } from '@jes/client';
import { useState } from 'preact/hooks';
import { Layout } from '../parts/layout.tsx';
import { ProblemBox } from '../parts/problem-box.tsx';
import { type Sent, UploadProgress } from '../parts/upload-progress.tsx';
import { bytes, compactJson } from '../format.ts';
import { go } from '../route.ts';
import { client } from '../session.ts';
import { settled, useCall } from '../use-call.ts';

/**
 * Where JSON.parse stopped, as the problem the service would answer (its code, `malformed_json`, and its words), with
 * the line and column in the text when the browser's message gives only a position.
 */
function syntaxProblem(text: string, error: Error): Problem {
  const at = /position (\d+)/.exec(error.message)?.[1];
  let where = '';
  if (at !== undefined && !/line \d/.test(error.message)) {
    const before = text.slice(0, Number(at)).split('\n');
    where = ` (line ${before.length}, column ${before.at(-1)!.length + 1})`;
  }
  return {
    type: 'urn:jes:problem:malformed_json',
    title: 'Malformed JSON',
    status: 400,
    code: 'malformed_json',
    detail: `The input is not valid JSON: ${error.message}${where}.`,
  };
}

export function NewJobPage({ id, dataFile }: { id: string; dataFile: string | undefined }) {
  const useCase = useCall(() => client().getProblem(id), [id]);
  const [text, setText] = useState('');
  const [chosen, setChosen] = useState<Set<string>>();
  const [timeLimit, setTimeLimit] = useState('');
  const [problem, setProblem] = useState<Problem>();
  const [progress, setProgress] = useState<Sent>();
  const [busy, setBusy] = useState(false);
  const [dragging, setDragging] = useState(false);
  const data = useCase.data;
  const solvers = chosen ?? new Set(data?.solvers.filter((s) => s.default).map((s) => s.name));
  const size = new Blob([text]).size;

  const toggle = (name: string) => {
    const next = new Set(solvers);
    if (next.has(name)) next.delete(name);
    else next.add(name);
    setChosen(next);
  };

  const drop = async (event: DragEvent) => {
    event.preventDefault();
    setDragging(false);
    const file = event.dataTransfer?.files[0];
    if (file) setText(await file.text());
  };

  const submit = async (event: Event) => {
    event.preventDefault();
    setProblem(undefined);
    let input: unknown;
    if (dataFile) input = { data_file_identifier: dataFile };
    else
      try {
        input = JSON.parse(text);
      } catch (error) {
        return setProblem(syntaxProblem(text, error as Error));
      }
    setBusy(true);
    const options = {
      ...(chosen ? { solvers: [...solvers] } : {}),
      ...(timeLimit ? { timeLimitSeconds: Number(timeLimit) } : {}),
    };
    const started = await settled(() =>
      client((sent, total) => setProgress({ sent, total })).startJob(id as ProblemId, input as never, options),
    );
    setBusy(false);
    setProgress(undefined);
    if (started.data) go(`/jobs/${started.data.id}`);
    else if (started.error) setProblem(started.error);
  };

  return (
    <Layout section="new" title={`New ${id} job`}>
      {useCase.error && <ProblemBox problem={useCase.error} />}
      <form class="new-job" onSubmit={submit}>
        <div class="input-side">
          {dataFile ? (
            <p>
              Input: data file <code>{dataFile}</code>
            </p>
          ) : (
            <>
              <label for="input">
                Input (JSON): paste it, or drop a file here
                {data && (
                  <button type="button" class="link" onClick={() => setText(compactJson(data.example_input))}>
                    Use the example
                  </button>
                )}
              </label>
              <textarea
                id="input"
                class={dragging ? 'dragging' : undefined}
                spellcheck={false}
                rows={16}
                value={text}
                onInput={(e) => setText(e.currentTarget.value)}
                onDragOver={(e) => {
                  e.preventDefault();
                  setDragging(true);
                }}
                onDragLeave={() => setDragging(false)}
                onDrop={drop}
                aria-describedby="input-size"
              />
              <p id="input-size" class="hint">
                {bytes(size)}
                {size >= MAX_INLINE_BYTES && ': at least 4 MiB, so it is uploaded as a data file first'}
              </p>
            </>
          )}
          {problem && <ProblemBox problem={problem} />}
        </div>
        <div class="options-side">
          <fieldset>
            <legend>Solvers</legend>
            {data?.solvers.map((s) => (
              <label key={s.name} class="check">
                <input type="checkbox" checked={solvers.has(s.name)} onChange={() => toggle(s.name)} />
                <code>{s.name}</code>{' '}
                <span class="hint">
                  {[s.exact && 'proves its answer optimal', s.max_nodes !== undefined && `up to ${s.max_nodes} nodes`]
                    .filter(Boolean)
                    .join(', ')}
                </span>
              </label>
            ))}
            <p class="hint">Unchanged, the service runs its default solvers for the input.</p>
          </fieldset>
          <label>
            Time limit (seconds)
            <input
              type="number"
              min="0.001"
              step="any"
              placeholder="the solvers' defaults"
              value={timeLimit}
              onInput={(e) => setTimeLimit(e.currentTarget.value)}
            />
          </label>
          <button type="submit" disabled={busy || (!dataFile && !text.trim())}>
            {busy ? 'Starting…' : 'Start the job'}
          </button>
          <UploadProgress progress={progress} />
        </div>
      </form>
    </Layout>
  );
}
