// Input files named on the command line: JSON or an edge list, read or uploaded from disk.
import { open, readFile, stat } from 'node:fs/promises';
import { fromPath, type DataFile, type JesClient, type ProblemId } from '../node.ts';
import { must, usageError } from './errors.ts';

/** The file's size; a missing or unreadable file is a usage error. */
export async function fileSize(path: string): Promise<number> {
  try {
    const info = await stat(path);
    if (!info.isFile()) throw usageError(`${path} is not a file`);
    return info.size;
  } catch (error) {
    if (error instanceof Error && 'code' in error) throw usageError(`cannot read ${path}: ${(error as NodeJS.ErrnoException).code}`);
    throw error;
  }
}

/** True when the file starts (after a byte-order mark and white space) with `{`: the inline JSON shape. */
export async function looksLikeJson(path: string): Promise<boolean> {
  const handle = await open(path);
  try {
    const { buffer, bytesRead } = await handle.read(Buffer.alloc(1024), 0, 1024, 0);
    return buffer.subarray(0, bytesRead).toString('utf8').replace(/^\uFEFF/, '').trimStart().startsWith('{');
  } finally {
    await handle.close();
  }
}

export async function readJson(path: string): Promise<unknown> {
  try {
    return JSON.parse(await readFile(path, 'utf8'));
  } catch (error) {
    throw usageError(`${path} is not valid JSON: ${(error as Error).message}`);
  }
}

/** Uploads the file as a data file (streamed from disk), named after it unless `name` is given. */
export async function uploadFromPath(client: JesClient, problemId: ProblemId, path: string, extra: { name?: string; description?: string; idempotencyKey?: string } = {}): Promise<DataFile> {
  await fileSize(path);
  const { file, name } = await fromPath(path);
  const { name: _name, ...options } = extra;
  return must(await client.uploadDataFile({ problemId, file, name: extra.name ?? name, ...options }));
}
