// Large answers written a slice at a time, so that no one request holds the event loop: a 4 MiB inline job's input
// rebuilt as JSON took 100-180 ms of the main thread in one piece (20 at once kept a health probe waiting 17.7 s),
// and a 20 MB output 0.6-0.85 s (issue 27). JSON is made in slices of about 64 KiB; after each the loop is given
// back, and a client that does not read is waited for (never buffered whole), one that went away stops the writing.
import { setImmediate as nextTurn } from 'node:timers/promises';
import type { Response } from 'express';

const sliceCharacters = 64 * 1024;
/** Elements of an array of plain values stringified at once: a partition of 10 million nodes goes in pieces too. */
const runLength = 16 * 1024;

/** Resolves when `res` can take more (drain), or will take nothing more (close). */
export function drained(res: Response): Promise<void> {
  return new Promise((resolve) => {
    const done = () => {
      res.off('drain', done).off('close', done);
      resolve();
    };
    res.on('drain', done).on('close', done);
  });
}

/** Writes `chunks` to `res` as the client takes them; false when the client went away first. */
export async function writeChunks(res: Response, chunks: AsyncIterable<Uint8Array | string>): Promise<boolean> {
  for await (const chunk of chunks) {
    if (res.destroyed) return false;
    if (!res.write(chunk)) await drained(res);
    else await nextTurn();
  }
  return !res.destroyed;
}

const plain = (value: unknown) => value === null || typeof value !== 'object';

/** JSON text of `value` in pieces, as JSON.stringify writes it (plain data: objects, arrays, strings, numbers). */
function* jsonPieces(value: unknown): Generator<string> {
  if (plain(value) || typeof (value as { toJSON?: unknown }).toJSON === 'function') {
    yield JSON.stringify(value) ?? 'null';
    return;
  }
  if (Array.isArray(value)) {
    yield '[';
    for (let i = 0; i < value.length;) {
      if (i > 0) yield ',';
      if (plain(value[i])) {
        // A run of plain values in one call (JSON.stringify's own loop), without its brackets.
        let end = i + 1;
        while (end < value.length && end - i < runLength && plain(value[end])) end++;
        yield JSON.stringify(value.slice(i, end)).slice(1, -1);
        i = end;
      } else yield* jsonPieces(value[i++]);
    }
    yield ']';
    return;
  }
  yield '{';
  let first = true;
  for (const [key, member] of Object.entries(value as object)) {
    if (member === undefined || typeof member === 'function') continue;
    yield `${first ? '' : ','}${JSON.stringify(key)}:`;
    first = false;
    yield* jsonPieces(member);
  }
  yield '}';
}

/** JSON text of `value` (as JSON.stringify writes plain data) in slices of about 64 KiB. */
export async function* jsonSlices(value: unknown): AsyncGenerator<string> {
  let slice = '';
  for (const piece of jsonPieces(value)) {
    slice += piece;
    if (slice.length >= sliceCharacters) {
      yield slice;
      slice = '';
    }
  }
  if (slice) yield slice;
}

/** Answers `value` as JSON (200), in slices: the same text JSON.stringify gives, without blocking the loop. */
export async function sendJsonInSlices(res: Response, value: unknown): Promise<void> {
  res.type('application/json');
  if (await writeChunks(res, jsonSlices(value))) res.end();
}
