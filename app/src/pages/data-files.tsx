// Data files: the list (newest first, each with its status, format, size in bytes and in nodes and edges, and when
// it was uploaded), an upload with its progress, each file's details (the reason when INVALID), delete, and a job
// started from a READY one.
import type { DataFile, Problem, ProblemId } from '@jes/client';
import { useEffect, useState } from 'preact/hooks';
import { Layout } from '../parts/layout.tsx';
import { ProblemBox } from '../parts/problem-box.tsx';
import { type Sent, UploadProgress } from '../parts/upload-progress.tsx';
import { Table } from '../parts/table.tsx';
import { bytes, localTime, number } from '../format.ts';
import { go, href } from '../route.ts';
import { client } from '../session.ts';
import { onePage, settled, useCall } from '../use-call.ts';

const firstPage = () => onePage(client().listDataFiles({ limit: 50 }));

function Upload({ onDone }: { onDone: () => void }) {
  const [progress, setProgress] = useState<Sent>();
  const [problem, setProblem] = useState<Problem>();
  const submit = async (event: Event) => {
    event.preventDefault();
    const form = event.currentTarget as HTMLFormElement;
    const fields = new FormData(form);
    const file = fields.get('file') as File;
    const problemId = String(fields.get('problem_id')) as ProblemId;
    setProblem(undefined);
    setProgress({ sent: 0, total: file.size });
    const uploaded = await settled(() =>
      client((sent, total) => setProgress({ sent, total })).uploadDataFile({ problemId, file, name: file.name }),
    );
    setProgress(undefined);
    if (uploaded.error) return setProblem(uploaded.error);
    form.reset();
    onDone();
  };
  return (
    <form class="upload" onSubmit={submit}>
      <label>
        File (JSON, a Gset edge list, or a .qubo file)
        <input name="file" type="file" required />
      </label>
      <label>
        Use case
        <select name="problem_id">
          <option value="maxcut">maxcut</option>
          <option value="qubo">qubo</option>
        </select>
      </label>
      <button type="submit" disabled={progress !== undefined}>
        Upload
      </button>
      <UploadProgress progress={progress} />
      {problem && <ProblemBox problem={problem} />}
    </form>
  );
}

function Details({ file }: { file: DataFile }) {
  const rows: [string, unknown][] = [
    ['Name', file.name],
    ['Status', file.status],
    ['Use case', file.problem_id],
    ['Format', file.format],
    ['Size', bytes(file.bytes)],
    ['Nodes', file.num_nodes],
    ['Edges', file.num_edges],
    ['Uploaded', localTime(file.timestamps.uploaded)],
    ['Validated', file.timestamps.validated && localTime(file.timestamps.validated)],
  ];
  return (
    <dl class="details">
      {rows
        .filter(([, v]) => v !== undefined && v !== null)
        .map(([k, v]) => (
          <div key={k}>
            <dt>{k}</dt>
            <dd>{String(v)}</dd>
          </div>
        ))}
    </dl>
  );
}

/** One data file; read again every second while it is being validated, until it is READY or INVALID. */
function DataFileDetail({ id }: { id: string }) {
  const one = useCall(() => client().getDataFile(id), [id]);
  const [problem, setProblem] = useState<Problem>();
  const file = one.data;
  useEffect(() => {
    if (file?.status !== 'PROCESSING') return;
    const timer = setTimeout(() => one.reload(), 1000);
    return () => clearTimeout(timer);
  }, [file]);
  const remove = async () => {
    const deleted = await settled(() => client().deleteDataFile(id));
    if (deleted.error) return setProblem(deleted.error);
    go('/data-files');
  };
  return (
    <>
      {(one.error ?? problem) && <ProblemBox problem={(one.error ?? problem)!} />}
      {file && (
        <section class="data-file">
          <Details file={file} />
          {file.error && <ProblemBox problem={file.error} />}
          <p>
            {file.status === 'READY' && (
              <a class="button" href={href(`/new/${file.problem_id}?data_file=${file.id}`)}>
                Start a job from it
              </a>
            )}
            <button type="button" onClick={() => void remove()}>
              Delete it
            </button>
          </p>
        </section>
      )}
    </>
  );
}

export function DataFilesPage({ id }: { id: string | undefined }) {
  return (
    <Layout section="data-files" title={id ? `Data file ${id}` : 'Data files'}>
      {id ? <DataFileDetail id={id} /> : <DataFileList />}
    </Layout>
  );
}

function DataFileList() {
  const list = useCall(firstPage, []);
  return (
    <>
      <h2>Upload</h2>
      <Upload onDone={list.reload} />
      <h2>Your data files</h2>
      {list.error && <ProblemBox problem={list.error} />}
      {list.data && list.data.items.length === 0 && <p>No data files yet.</p>}
      {list.data && list.data.items.length > 0 && (
        <Table
          name="files"
          rows={list.data.items}
          keyOf={(f) => f.id}
          columns={[
            [
              'Data file',
              // Its first 12 hex digits, as git shortens a hash: the whole 40 would crowd out the other columns.
              (f) => (
                <a href={href(`/data-files/${f.id}`)} title={f.id}>
                  <code>{f.id.slice(0, 12)}…</code>
                </a>
              ),
            ],
            ['Name', (f) => f.name],
            ['Status', (f) => <span class={`status ${f.status}`}>{f.status}</span>],
            ['Use case', (f) => f.problem_id],
            ['Format', (f) => f.format ?? '—'],
            ['Size', (f) => bytes(f.bytes)],
            // A QUBO file's are its variables and coupled pairs; null until READY.
            ['Nodes / edges', (f) => (f.num_nodes === null ? '—' : `${number(f.num_nodes)} / ${number(f.num_edges)}`)],
            ['Uploaded (local time)', (f) => localTime(f.timestamps.uploaded)],
          ]}
        />
      )}
    </>
  );
}
