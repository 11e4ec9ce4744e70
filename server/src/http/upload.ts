// POST /data_file's body: multipart/form-data parsed with busboy as it streams in. The file is hashed
// (SHA-1) and stored in 1 MiB chunks under a temporary id while it arrives, never held whole in memory;
// the form fields become req.body for the contract validator. A stored upload that is not filed (the
// request failed later) is discarded when the response ends.
import { createHash, randomUUID } from 'node:crypto';
import busboy from 'busboy';
import type { NextFunction, Request, Response } from 'express';
import { maxDataFileBytes } from '../maxcut/use-case.ts';
import type { Database } from '../store/database.ts';
import { discardChunks, storeChunk } from '../store/data-files.ts';
import { HttpProblem } from './problems.ts';

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

export function streamUpload(db: Database) {
  return async (req: Request, res: Response, next: NextFunction) => {
    if (!req.is('multipart/form-data')) return next();
    let parser: busboy.Busboy;
    try {
      parser = busboy({ headers: req.headers, limits: { files: 1, fields: 8, fieldSize: 64 * 1024, fileSize: maxDataFileBytes } });
    } catch (error) {
      return next(new HttpProblem('invalid_request', `The multipart body cannot be read: ${(error as Error).message}.`));
    }
    const fields: Record<string, string> = {};
    let stored: Promise<void> | undefined;
    let tooLarge = false;
    parser.on('field', (name, value) => (fields[name] = value));
    parser.on('file', (name, stream) => {
      if (name !== 'file' || stored) return void stream.resume();
      const upload: Upload = { uploadId: `upload:${randomUUID()}`, sha1: '', bytes: 0, filed: false };
      req.upload = upload;
      res.on('close', () => {
        if (!upload.filed) discardChunks(db, req.user, upload.uploadId).catch((err) => req.log?.warn({ err }, 'could not discard an upload'));
      });
      stream.on('limit', () => (tooLarge = true));
      stored = (async () => {
        const hash = createHash('sha1');
        let pending: Buffer[] = [];
        let pendingBytes = 0;
        let part = 0;
        const flush = async () => {
          if (pendingBytes === 0) return;
          const chunk = Buffer.concat(pending, pendingBytes);
          pending = [];
          pendingBytes = 0;
          await storeChunk(db, req.user, upload.uploadId, part++, chunk);
        };
        for await (const piece of stream as AsyncIterable<Buffer>) {
          if (tooLarge) continue;
          hash.update(piece);
          upload.bytes += piece.length;
          pending.push(piece);
          pendingBytes += piece.length;
          if (pendingBytes >= chunkBytes) await flush();
        }
        if (!tooLarge) await flush();
        upload.sha1 = hash.digest('hex');
      })();
    });
    const parsed = new Promise<void>((resolve, reject) => {
      parser.on('close', resolve);
      parser.on('error', reject);
      req.on('error', reject);
    });
    req.pipe(parser);
    try {
      await parsed;
      await stored;
    } catch (error) {
      return next(new HttpProblem('invalid_request', `The multipart body cannot be read: ${(error as Error).message}.`));
    }
    if (tooLarge) return next(new HttpProblem('payload_too_large', `A data file must be at most ${maxDataFileBytes} bytes.`, { max_bytes: maxDataFileBytes }));
    // `file` must be a file part: a text field of that name does not count (the validator then asks for the file).
    const { file: _notAFile, ...rest } = fields;
    req.body = { ...rest, ...(req.upload ? { file: `${req.upload.bytes} bytes` } : {}) };
    next();
  };
}
