// Uploading a data file (POST /data_file, multipart): a Blob or text goes as FormData, a stream (or any file
// whose progress is followed) as a streamed multipart body. The service detects the format (the inline JSON
// shape or an edge list). Every upload carries an Idempotency-Key; a Blob or text is sent again with it when
// the network or a gateway fails.
import type { Client } from 'openapi-fetch';
import type { paths } from '@jes/contract';
import { type ByteStream, chunks, streamingMultipart } from './multipart.ts';
import { settle, unwrap } from './result.ts';
import { newIdempotencyKey, type RetryOptions, withRetries } from './retry.ts';
import type { Session } from './session.ts';
import type { DataFile, ProblemId, Result } from './types.ts';

export interface UploadOptions {
  problemId: ProblemId;
  /** The bytes: a Blob (a browser File, Node's `openAsBlob`), text, or a stream of bytes (sent once). */
  file: Blob | string | ByteStream;
  /** A name for the file, for example its file name. */
  name: string;
  description?: string;
  /** The Idempotency-Key (default: a new random UUID); the same key retries an upload whose answer was lost. */
  idempotencyKey?: string;
  /** Retrying after a network failure, 502, 503 or 504 (a Blob or text only: a stream is sent once). */
  retry?: RetryOptions;
  /** Stops the call (and its retries). */
  signal?: AbortSignal;
  /**
   * Called as the file's bytes go out: bytes so far and the total (undefined for a stream). The body is then
   * streamed (each try reading a Blob afresh), which browsers allow over HTTP/2 only; Node has no such limit.
   */
  onProgress?: (sent: number, total: number | undefined) => void;
}

type UploadBody = paths['/data_file']['post']['requestBody']['content']['multipart/form-data'];

/** `stream`'s chunks, reporting the bytes handed on so far after each (the consumer pulls the next as it sends). */
async function* counted(
  stream: ByteStream,
  total: number | undefined,
  onProgress: NonNullable<UploadOptions['onProgress']>,
) {
  let sent = 0;
  onProgress(sent, total);
  for await (const chunk of chunks(stream)) {
    yield chunk;
    sent += chunk.byteLength;
    onProgress(sent, total);
  }
}

/**
 * Uploads a data file; resolves to its record (`PROCESSING` until the service has validated it). A
 * stream cannot be sent twice, so a stream upload refused with `invalid_token` is returned, not retried.
 */
export function uploadDataFile(
  api: Client<paths>,
  session: Session,
  options: UploadOptions,
): Promise<Result<DataFile>> {
  const { problemId, file, name, description, signal, onProgress } = options;
  const fields: Record<string, string> = {
    problem_id: problemId,
    name,
    ...(description !== undefined ? { description } : {}),
  };
  const header = { 'Idempotency-Key': options.idempotencyKey ?? newIdempotencyKey() };
  // openapi-fetch types the body from the contract (the file as a string); the serializer sends the real one.
  const post = (body: BodyInit, init: { headers?: Record<string, string>; duplex?: 'half' } = {}) =>
    api
      .POST('/data_file', {
        params: { header },
        body: { ...fields, file: name } as UploadBody,
        bodySerializer: () => body,
        ...init,
        ...(signal ? { signal } : {}),
      })
      .then((answer) => settle(answer, (data) => unwrap(data.data_file)));
  const postStream = (stream: ByteStream) => {
    const { body, contentType } = streamingMultipart(fields, 'file', name, stream);
    return post(body, { headers: { 'Content-Type': contentType }, duplex: 'half' });
  };

  if (onProgress && (typeof file === 'string' || file instanceof Blob)) {
    // Streamed to count the bytes; each try streams the Blob from its start again.
    const blob = typeof file === 'string' ? new Blob([file]) : file;
    const retry = { ...options.retry, ...(signal ? { signal } : {}) };
    return session.authed(() => withRetries(() => postStream(counted(blob.stream(), blob.size, onProgress)), retry));
  }
  if (typeof file === 'string' || file instanceof Blob) {
    // A new form for every try: a Blob can be read again, a form once sent cannot be relied on to.
    return session.authed(() =>
      withRetries(
        () => {
          const form = new FormData();
          for (const [key, value] of Object.entries(fields)) form.set(key, value);
          form.set('file', typeof file === 'string' ? new Blob([file]) : file, name);
          return post(form);
        },
        { ...options.retry, ...(signal ? { signal } : {}) },
      ),
    );
  }
  return session.authed(() => postStream(onProgress ? counted(file, undefined, onProgress) : file), {
    replayable: false,
  });
}
