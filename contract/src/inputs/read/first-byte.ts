// A data file's format is told by its first byte that is not whitespace (after an optional UTF-8 byte-order
// mark): `{` is JSON, anything else the use case's text format. This peeks at it and hands back the whole
// stream, the peeked chunks first, for that format's reader; an empty or blank file is refused here.
import { emptyFile } from './chunk-reader.ts';

const BOM = [0xef, 0xbb, 0xbf] as const;
/** `{`: the first byte of a JSON data file. */
export const OPEN_BRACE = 123;

/**
 * The first byte that is not whitespace (0xEF for a file that holds only part of a byte-order mark: not text)
 * and the chunks from the start. Throws InputError for a file that is empty or holds only whitespace.
 */
export async function peekFirstByte(
  chunks: AsyncIterable<Uint8Array>,
): Promise<{ first: number; chunks: AsyncIterable<Uint8Array> }> {
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
    throw emptyFile(position === bomBytes ? 'the file is empty' : 'the file holds only whitespace');
  }
  return { first, chunks: replay(peeked, iterator) };
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
