// A max-cut data file of either format: the first byte that is not whitespace (after an optional byte-order
// mark) tells them apart — `{` is the JSON shape, anything else the Gset/rudy edge list — then the chunks stream,
// the peeked ones first, through that format's reader.
import { graphFromEdgeList } from './edge-list.ts';
import { OPEN_BRACE, peekFirstByte } from '../read/first-byte.ts';
import { absoluteWeight, type Graph, TOTAL_WEIGHT_MESSAGE } from './graph.ts';
import { InputError } from '../input-error.ts';
import { graphFromJsonStream } from './json-matrix.ts';

export type DataFileFormat = 'json' | 'edge_list';

/** Reads a data file; throws InputError (with pointers into the file) when it is empty or invalid. */
export async function graphFromDataFile(
  chunks: AsyncIterable<Uint8Array>,
): Promise<{ format: DataFileFormat; graph: Graph }> {
  const { first, chunks: rest } = await peekFirstByte(chunks);
  const read =
    first === OPEN_BRACE
      ? { format: 'json' as const, graph: await graphFromJsonStream(rest) }
      : { format: 'edge_list' as const, graph: await graphFromEdgeList(rest) };
  // Finite weights can still sum (or, repeated, merge) past a double: such a cut could not be represented.
  if (!Number.isFinite(absoluteWeight(read.graph)))
    throw new InputError(TOTAL_WEIGHT_MESSAGE, [
      { pointer: '', detail: 'the absolute weights sum past the largest double' },
    ]);
  return read;
}
