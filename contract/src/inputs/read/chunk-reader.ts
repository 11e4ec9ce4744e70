// What every data-file reader is: fed a stream chunk by chunk (the file never one string), then asked what the
// whole makes; and the error each gives for a file with nothing in it.
import { InputError } from '../input-error.ts';

/** A reader of one stream: `push` each chunk in order, then `finish`. Both throw InputError for a fault. */
export interface ChunkReader<T> {
  push(chunk: Uint8Array): void;
  finish(): T;
}

/** Feeds `chunks` to `reader`, then finishes it. */
export async function readChunks<T>(chunks: AsyncIterable<Uint8Array>, reader: ChunkReader<T>): Promise<T> {
  for await (const chunk of chunks) reader.push(chunk);
  return reader.finish();
}

/** The error for a file without a byte (`detail` says so), or with only whitespace. */
export function emptyFile(detail = 'the file is empty'): InputError {
  return new InputError('The file is empty.', [{ pointer: '', detail }]);
}
