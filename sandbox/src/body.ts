// A request body as the reference server takes it, before anything looks at what it says: its Content-Encoding
// decoded first (identity, gzip, deflate, br; node:zlib), the operation's size limit applied to the decoded
// bytes, its media type and charset read from Content-Type, and a leading UTF-8 byte-order mark dropped.
import type { IncomingMessage } from 'node:http';
import { createBrotliDecompress, createGunzip, createInflate } from 'node:zlib';

const decoders = { gzip: createGunzip, deflate: createInflate, br: createBrotliDecompress };

export type Coding = 'identity' | keyof typeof decoders;

/** The body's Content-Encoding, or undefined for one that is not decoded (zstd, compress, a list of several). */
export function codingOf(header: string | undefined): Coding | undefined {
  const value = (header ?? '').trim().toLowerCase() || 'identity';
  return value === 'identity' || Object.hasOwn(decoders, value) ? (value as Coding) : undefined;
}

/** The media type of a Content-Type, lower case and without parameters; '' when there is none. */
export const mediaTypeOf = (contentType = ''): string => contentType.split(';')[0]!.trim().toLowerCase();

/** The charset parameter of a Content-Type, lower case and unquoted, if it has one. */
export const charsetOf = (contentType: string | undefined): string | undefined =>
  /;\s*charset\s*=\s*"?([^";\s]*)/i.exec(contentType ?? '')?.[1]?.toLowerCase();

export const isUtf8 = (charset: string | undefined): boolean =>
  charset === undefined || ['utf-8', 'utf8'].includes(charset);

export type Body = { bytes: Buffer } | { tooLarge: true } | { undecodable: string };

// Once the answer is known, the rest of a body is read and dropped before the answer goes out: a client still
// sending would otherwise meet a reset connection instead of the answer. Up to 16 MiB, and while data keeps
// coming (at most 5 s apart); past either, the answer goes out and the connection is closed after it.
const drainBytes = 16 * 1024 * 1024;
const drainIdleMs = 5000;

/** Reads the rest of the body and drops it; resolves at its end, at the bounds above, or when the client goes. */
export function drain(req: IncomingMessage): Promise<void> {
  return new Promise((resolve) => {
    if (req.readableEnded || req.destroyed) return resolve();
    let dropped = 0;
    const done = () => {
      clearTimeout(idle);
      req.off('data', onData);
      resolve();
    };
    const idle = setTimeout(done, drainIdleMs);
    const onData = (chunk: Buffer) => {
      dropped += chunk.length;
      if (dropped >= drainBytes) done();
      else idle.refresh();
    };
    req.on('data', onData);
    req.once('end', done);
    req.once('close', done);
    req.once('error', done);
  });
}

// A compressed body can decode to nothing for ever (empty deflate blocks): its own bytes are capped as well,
// at this many times the limit, far above what any real compression adds.
const encodedSlack = 2;

/**
 * Reads the body, decoded, while it stays below `limit` bytes once decoded. Once the answer is known (too
 * large, undecodable), the rest is dropped by `drain`. Rejects only when the client goes away first.
 */
export function readBody(req: IncomingMessage, coding: Coding, limit: number): Promise<Body> {
  return new Promise((resolve, reject) => {
    const decoder = coding === 'identity' ? undefined : decoders[coding]();
    const chunks: Buffer[] = [];
    let decoded = 0;
    let encoded = 0;
    let judged = false;
    const judge = (body: Body) => {
      if (judged) return;
      judged = true;
      req.off('data', onEncoded);
      decoder?.destroy();
      if ('bytes' in body) resolve(body);
      else void drain(req).then(() => resolve(body));
    };
    const onDecoded = (chunk: Buffer) => {
      decoded += chunk.length;
      if (decoded >= limit) judge({ tooLarge: true });
      else chunks.push(chunk);
    };
    const onEncoded = (chunk: Buffer) => {
      encoded += chunk.length;
      if (encoded >= limit * encodedSlack) judge({ tooLarge: true });
      else if (decoder) decoder.write(chunk);
      else onDecoded(chunk);
    };
    req.on('data', onEncoded);
    req.on('end', () => {
      if (judged) return;
      if (decoder) decoder.end();
      else judge({ bytes: Buffer.concat(chunks) });
    });
    req.on('close', () => {
      if (!judged && !req.readableEnded) reject(new Error('the client went away before the end of the body'));
    });
    req.on('error', (error) => {
      if (!judged) reject(error);
    });
    decoder?.on('data', onDecoded);
    decoder?.on('end', () => judge({ bytes: Buffer.concat(chunks) }));
    decoder?.on('error', (error) => judge({ undecodable: error.message }));
  });
}

const bom = Buffer.from([0xef, 0xbb, 0xbf]);

/** The bytes without a leading UTF-8 byte-order mark (JSON.parse refuses one; the server accepts it). */
export const withoutBom = (bytes: Buffer): Buffer => (bytes.subarray(0, 3).equals(bom) ? bytes.subarray(3) : bytes);
