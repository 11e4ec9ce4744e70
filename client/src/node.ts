// @jes/client/node: the client plus what only Node has. A Node Readable is already accepted as `file`
// (it is an async iterable of bytes); this adds files on disk.
import { openAsBlob } from 'node:fs';
import { basename } from 'node:path';

export * from './index.ts';

/**
 * A file on disk for `uploadDataFile`: a Blob that reads the file while it is sent (never whole into
 * memory, and again if the upload is retried), named after the file.
 */
export async function fromPath(path: string): Promise<{ file: Blob; name: string }> {
  return { file: await openAsBlob(path), name: basename(path) };
}
