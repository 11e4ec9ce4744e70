// POST /data_file's body: multipart/form-data (plain or gzip, deflate or br encoded) parsed with busboy as it
// streams in. The part named `file` is the file whether or not it has a filename (the contract allows JSON and
// plain text parts). It is hashed (SHA-1) and stored in 1 MiB chunks under a temporary id while it arrives, never
// held whole in memory; the form fields become req.body for the contract validator. Whatever happens to the
// request (a form cut off, a part too large), storing is awaited before it is answered, and a stored upload that
// is not filed is discarded when the response ends.
import { createHash, randomUUID } from 'node:crypto';
import type { Readable } from 'node:stream';
import { createBrotliDecompress, createGunzip, createInflate } from 'node:zlib';
import { Busboy, type BusboyInstance } from '@fastify/busboy';
import type { NextFunction, Request, Response } from 'express';
import type { Database } from '../store/database.ts';
import { discardChunks, storedBytes, storeChunk } from '../store/data-files.ts';
import { acceptedEncoding } from './json-body.ts';
import { ApiError } from '../core/api-error.ts';
import type { DiskSpace } from '../store/disk-space.ts';
import { noRoom, requireRoom } from './disk-room.ts';
import { unacceptableValue } from './text-limits.ts';
import { largestDataFileBytes } from '../use-cases.ts';

export interface Upload {
  uploadId: string;
  sha1: string;
  bytes: number;
  /** Set once the upload is filed under its identifier; otherwise it is discarded at the end. */
  filed: boolean;
}

declare module 'express-serve-static-core' {
  interface Request {
    upload?: Upload;
  }
}

const chunkBytes = 1024 * 1024;

/** Stores the file's bytes in chunks as they arrive; resolves when the stream has ended (or stopped at the limit). */
async function storeStream(
  db: Database,
  owner: string,
  upload: Upload,
  stream: Readable & { truncated?: boolean },
  room: { used: number; quota: number } | undefined,
  space: DiskSpace | undefined,
): Promise<void> {
  const hash = createHash('sha1');
  let pending: Buffer[] = [];
  let pendingBytes = 0;
  let part = 0;
  const flush = async () => {
    if (pendingBytes === 0) return;
    const chunk = Buffer.concat(pending, pendingBytes);
    pending = [];
    pendingBytes = 0;
    // Each MiB only if the disk keeps its floor free: it is refused (507), not written into the reserve.
    requireRoom(space, chunk.length);
    await storeChunk(db, owner, upload.uploadId, part++, chunk);
  };
  for await (const piece of stream as AsyncIterable<Buffer>) {
    hash.update(piece);
    upload.bytes += piece.length;
    // Past the owner's quota nothing more is stored, only hashed: bytes already uploaded are answered 200 whatever
    // the quota, and new ones 413 when the upload is filed (completeUpload checks the quota exactly).
    if (room && room.used + upload.bytes > room.quota) {
      pending = [];
      pendingBytes = 0;
      continue;
    }
    pending.push(piece);
    pendingBytes += piece.length;
    if (pendingBytes >= chunkBytes) await flush();
  }
  if (!stream.truncated && !(room && room.used + upload.bytes > room.quota)) await flush();
  upload.sha1 = hash.digest('hex');
}

/** The request's bytes as sent, or decoded from the Content-Encoding acceptedEncoding allowed. */
function decoded(req: Request): Readable {
  const encoding = req.get('content-encoding')?.trim().toLowerCase();
  const decoder =
    encoding === 'gzip'
      ? createGunzip()
      : encoding === 'deflate'
        ? createInflate()
        : encoding === 'br'
          ? createBrotliDecompress()
          : undefined;
  return decoder ? req.pipe(decoder) : req;
}

/** A data file over a use case's limit (the largest while the form streams in, its own once it is known). */
export function dataFileTooLarge(maxBytes: number): ApiError {
  return new ApiError('payload_too_large', `A data file must be at most ${maxBytes} bytes.`, {
    max_bytes: maxBytes,
  });
}

export function streamUpload(db: Database, quotaBytes: number | undefined, space: DiskSpace | undefined) {
  return async (req: Request, res: Response, next: NextFunction) => {
    if (!req.is('multipart/form-data')) return next();
    const refused = acceptedEncoding(req);
    if (refused) return next(refused);
    if (space?.state() === 'low') return next(noRoom(space));
    // What the owner's files hold before this one, and may hold: past it this upload stores nothing more.
    const room = quotaBytes === undefined ? undefined : { used: await storedBytes(db, req.user), quota: quotaBytes };
    let parser: BusboyInstance;
    try {
      parser = new Busboy({
        headers: req.headers as { 'content-type': string },
        isPartAFile: (name: string | undefined, _type: string | undefined, filename: string | undefined) =>
          name === 'file' || filename !== undefined,
        limits: { files: 1, fields: 8, parts: 16, fieldSize: 64 * 1024, fileSize: largestDataFileBytes },
      });
    } catch (error) {
      return next(new ApiError('invalid_request', `The multipart body cannot be read: ${(error as Error).message}.`));
    }
    // No prototype: a part named __proto__ is an extra field like any other (the contract allows extra fields).
    const fields: Record<string, string> = Object.create(null);
    let file: (Readable & { truncated?: boolean }) | undefined;
    let stored: Promise<void> | undefined;
    let nameless = false;
    parser.on('field', (name: string | undefined, value: string) => {
      if (!name) nameless = true;
      else fields[name] = value;
    });
    parser.on('file', (name: string, stream: Readable & { truncated?: boolean }) => {
      // Another file part is drained; a form cut off inside it errors its stream, which must not go unheard.
      if (name !== 'file' || stored) return void stream.on('error', () => {}).resume();
      const upload: Upload = { uploadId: `upload:${randomUUID()}`, sha1: '', bytes: 0, filed: false };
      req.upload = upload;
      file = stream;
      res.on('close', () => {
        if (!upload.filed)
          discardChunks(db, req.user, upload.uploadId).catch((err) =>
            req.log?.warn({ err }, 'could not discard an upload'),
          );
      });
      stored = storeStream(db, req.user, upload, stream, room, space);
      // Awaited below; a refusal of its own (no room on the disk) ends the parsing at once, as the parser would wait
      // for the file to be read.
      stored.catch((error: unknown) => error instanceof ApiError && parsing.reject(error));
    });
    const body = decoded(req);
    const parsing = Promise.withResolvers<void>();
    parser.on('finish', parsing.resolve);
    parser.on('error', parsing.reject);
    body.on('error', parsing.reject);
    req.on('error', parsing.reject);
    req.on('aborted', () => parsing.reject(new Error('the request was aborted')));
    const parsed = parsing.promise;
    body.pipe(parser);
    try {
      await parsed;
      await stored;
    } catch (error) {
      // The form was cut off or broken, or the disk had no room: stop the file where it is, and answer only once
      // storing has settled.
      body.unpipe(parser);
      file?.destroy();
      await stored?.catch(() => {});
      if (error instanceof ApiError) return next(error);
      return next(new ApiError('invalid_request', `The multipart body cannot be read: ${(error as Error).message}.`));
    }
    if (file?.truncated) return next(dataFileTooLarge(largestDataFileBytes));
    if (nameless)
      return next(
        new ApiError('invalid_request', 'Every part of the form needs a name.', {
          errors: [{ pointer: '/', detail: 'has a part without a name' }],
        }),
      );
    const { file: _theFile, ...rest } = fields;
    const found = unacceptableValue(rest);
    if (found)
      return next(new ApiError('invalid_request', 'The request does not match the API contract.', { errors: [found] }));
    req.body = { ...rest, ...(req.upload ? { file: `${req.upload.bytes} bytes` } : {}) };
    next();
  };
}
