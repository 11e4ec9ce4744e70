// Checking a data file and preparing its input: `validate`, in the main thread for a small file, else in a thread of
// its own, this module's entry, fed the chunks the main thread posts as it reads them (building and encoding the
// graph of a 79 MB edge list held every request for over a second on the main thread; issue 28). Also the messages
// the two exchange.
import { parentPort, workerData } from 'node:worker_threads';
import { InputError, type InputErrorItem } from '../../../contract/src/inputs/input-error.ts';
import { findUseCase } from '../use-cases.ts';

/** Main → thread: a chunk of the file, then the end of it. */
export type ChunkMessage = { chunk: Uint8Array } | { end: true };

/** Thread → main: the file prepared, or why it is invalid (`input`), or that reading it failed for another reason. */
export type VerdictMessage =
  | { ready: true; format: string; numNodes: number; numEdges: number; prepared: Uint8Array }
  | { invalid: true; message: string; errors: InputErrorItem[] }
  | { failed: true; message: string; stack: string | undefined };

async function* posted(): AsyncGenerator<Uint8Array> {
  const queue: ChunkMessage[] = [];
  let wake: (() => void) | undefined;
  parentPort!.on('message', (message: ChunkMessage) => {
    queue.push(message);
    wake?.();
  });
  for (;;) {
    while (queue.length === 0) await new Promise<void>((resolve) => (wake = resolve));
    const message = queue.shift()!;
    if ('end' in message) return;
    yield message.chunk;
  }
}

/** The verdict on a file of `problemId`, read from `chunks` (in this thread, or the main one for a small file). */
export async function validate(problemId: string, chunks: AsyncIterable<Uint8Array>): Promise<VerdictMessage> {
  try {
    const useCase = findUseCase(problemId);
    if (!useCase) throw new InputError(`This server does not run use case "${problemId}".`);
    const { format, input } = await useCase.readDataFile(chunks);
    const size = useCase.size(input);
    return { ready: true, format, numNodes: size.nodes, numEdges: size.edges, prepared: useCase.encode(input) };
  } catch (error) {
    if (error instanceof InputError) return { invalid: true, message: error.message, errors: error.errors };
    return { failed: true, message: String((error as Error)?.message ?? error), stack: (error as Error)?.stack };
  }
}

if (parentPort && workerData?.validation) {
  const verdict = await validate((workerData as { problemId: string }).problemId, posted());
  const transfer = 'prepared' in verdict ? [verdict.prepared.buffer as ArrayBuffer] : [];
  parentPort.postMessage(verdict, transfer);
}
