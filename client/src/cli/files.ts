// Input files named on the command line: JSON or an edge list, read or uploaded from disk.
import { open, readFile, stat } from 'node:fs/promises';
import { basename } from 'node:path';
import { fromPath, type DataFile, type JesClient, type ProblemId } from '../node.ts';
import { must, usageError } from './errors.ts';
import { uploadProgress } from './upload-progress.ts';

/** The file's size; a missing or unreadable file is a usage error. */
export async function fileSize(path: string): Promise<number> {
  try {
    const info = await stat(path);
    if (!info.isFile()) throw usageError(`${path} is not a file`);
    return info.size;
  } catch (error) {
    if (error instanceof Error && 'code' in error)
      throw usageError(`cannot read ${path}: ${(error as NodeJS.ErrnoException).code}`);
    throw error;
  }
}

/** True when the file starts (after a byte-order mark and white space) with `{`: the inline JSON shape. */
export async function looksLikeJson(path: string): Promise<boolean> {
  const handle = await open(path);
  try {
    const { buffer, bytesRead } = await handle.read(Buffer.alloc(1024), 0, 1024, 0);
    return buffer
      .subarray(0, bytesRead)
      .toString('utf8')
      .replace(/^\uFEFF/, '')
      .trimStart()
      .startsWith('{');
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

export interface UploadChoices {
  name?: string;
  description?: string;
  idempotencyKey?: string;
  /** Show the upload's progress on stderr when it is a terminal. */
  showProgress?: boolean;
}

/** Uploads the file as a data file (streamed from disk), named after it unless `name` is given. */
export async function uploadFromPath(
  client: JesClient,
  problemId: ProblemId,
  path: string,
  choices: UploadChoices = {},
): Promise<DataFile> {
  await fileSize(path);
  const { file, name } = await fromPath(path);
  const { name: given, showProgress = false, ...options } = choices;
  const progress = showProgress ? uploadProgress(process.stderr, basename(path)) : undefined;
  const onProgress = progress ? { onProgress: progress.onProgress } : {};
  try {
    return must(await client.uploadDataFile({ problemId, file, name: given ?? name, ...options, ...onProgress }));
  } finally {
    progress?.done();
  }
}
