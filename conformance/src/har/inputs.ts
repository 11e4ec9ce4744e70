// The inputs of a recorded run's jobs, for recomputing their answers (a max-cut cut, a QUBO energy) when the replay
// compares them: the body of the request that started each job (by the job id the recording got back), or the data
// file it names as the recording uploaded it (a JSON file: the suite's own uploads are).
import { recordedJson, type Inputs } from './compare.ts';
import type { RecordedEntry } from './har.ts';

/** A job's input as its start request sent it, or the data file it names as uploaded (a JSON file). */
function inputOf(
  entry: RecordedEntry,
  files: Map<string, unknown>,
): { adj_matrix?: number[][]; q_matrix?: number[][] } | undefined {
  let body: any;
  try {
    body = JSON.parse(entry.request.postData?.text ?? '');
  } catch {
    return undefined;
  }
  if (typeof body?.data_file_identifier === 'string') body = files.get(body.data_file_identifier);
  return body && (Array.isArray(body.adj_matrix) || Array.isArray(body.q_matrix)) ? body : undefined;
}

/** The inputs of the recorded jobs, by recorded job id, and of the data files by identifier. */
export function recordedInputs(entries: RecordedEntry[]): Inputs {
  const files = new Map<string, unknown>();
  const inputs: Inputs = new Map();
  for (const entry of entries) {
    const then = recordedJson(entry) as { job?: unknown; data_file_identifier?: unknown } | undefined;
    const file = entry.request.postData?.params?.find((p) => p.fileName !== undefined);
    if (typeof then?.data_file_identifier === 'string' && file)
      try {
        files.set(then.data_file_identifier, JSON.parse(file.value ?? ''));
      } catch {}
    const input = typeof then?.job === 'string' ? inputOf(entry, files) : undefined;
    if (input && typeof then?.job === 'string') inputs.set(then.job, input);
  }
  return inputs;
}
