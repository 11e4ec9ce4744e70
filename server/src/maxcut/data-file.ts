// A max-cut data file of either format: peeks at the first byte that is not whitespace (after an optional
// byte-order mark) — `{` is the JSON shape, anything else the Gset/rudy edge list — then streams the chunks,
// the peeked ones first, through that format's reader.
import { graphFromEdgeList } from './edge-list.ts';
import { absoluteWeight, type Graph, TOTAL_WEIGHT_MESSAGE } from './graph.ts';
import { InputError } from './input-error.ts';
import { graphFromJsonStream } from './json-stream.ts';

export type DataFileFormat = 'json' | 'edge_list';

const BOM = [0xef, 0xbb, 0xbf] as const;

/** Reads a data file; throws InputError (with pointers into the file) when it is empty or invalid. */
export async function graphFromDataFile(
  chunks: AsyncIterable<Uint8Array>,
): Promise<{ format: DataFileFormat; graph: Graph }> {
  const iterator = chunks[Symbol.asyncIterator]();
  const peeked: Uint8Array[] = [];
  let position = 0;
  let first = -1;
  let bomBytes = 0;
  while (first < 0) {
    const next = await iterator.next();
    if (next.done === true) break;
    const chunk = next.value;
    peeked.push(chunk);
    for (let i = 0; i < chunk.length; i++, position++) {
      const c = chunk[i]!;
      if (position < 3 && c === BOM[position] && position === bomBytes) {
        bomBytes++;
        continue;
      }
      if (c === 32 || c === 9 || c === 10 || c === 13) continue;
      first = c;
      break;
    }
  }
  if (first < 0 && bomBytes > 0 && bomBytes < 3) first = BOM[0]; // only part of a BOM: not text, so not JSON
  if (first < 0) {
    throw new InputError('The file is empty.', [
      { pointer: '', detail: position === bomBytes ? 'the file is empty' : 'the file holds only whitespace' },
    ]);
  }
  const rest = replay(peeked, iterator);
  const read =
    first === 123 /* { */
      ? { format: 'json' as const, graph: await graphFromJsonStream(rest) }
      : { format: 'edge_list' as const, graph: await graphFromEdgeList(rest) };
  // Finite weights can still sum (or, repeated, merge) past a double: such a cut could not be represented.
  if (!Number.isFinite(absoluteWeight(read.graph)))
    throw new InputError(TOTAL_WEIGHT_MESSAGE, [
      { pointer: '', detail: 'the absolute weights sum past the largest double' },
    ]);
  return read;
}

/** The peeked chunks, then the rest of the iterator; closes the iterator if the reader stops early. */
async function* replay(peeked: readonly Uint8Array[], iterator: AsyncIterator<Uint8Array>): AsyncGenerator<Uint8Array> {
  let finished = false;
  try {
    yield* peeked;
    for (;;) {
      const next = await iterator.next();
      if (next.done === true) {
        finished = true;
        return;
      }
      yield next.value;
    }
  } finally {
    if (!finished) await iterator.return?.();
  }
}
