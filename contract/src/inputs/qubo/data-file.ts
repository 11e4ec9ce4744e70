// A QUBO data file of either format: `json` (`{"num_variables": ..., "q_matrix": ...}`, first byte `{`) or
// qbsolv's `.qubo` text (anything else), told apart by the first byte that is not whitespace.
import { OPEN_BRACE, peekFirstByte } from '../read/first-byte.ts';
import type { QuboInput } from './input.ts';
import { quboFromJsonStream } from './json-matrix.ts';
import { quboFromQuboFile } from './qubo-file.ts';

export type QuboDataFileFormat = 'json' | 'qubo';

/** Reads a data file; throws InputError (with pointers into the file) when it is empty or invalid. */
export async function quboFromDataFile(
  chunks: AsyncIterable<Uint8Array>,
): Promise<{ format: QuboDataFileFormat; input: QuboInput }> {
  const peeked = await peekFirstByte(chunks);
  return peeked.first === OPEN_BRACE
    ? { format: 'json', input: await quboFromJsonStream(peeked.chunks) }
    : { format: 'qubo', input: await quboFromQuboFile(peeked.chunks) };
}
