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
export const mediaTypeOf = (contentType: string | undefined): string => (contentType ?? '').split(';')[0]!.trim().toLowerCase();

/** The charset parameter of a Content-Type, lower case and unquoted, if it has one. */
export const charsetOf = (contentType: string | undefined): string | undefined =>
  /;\s*charset\s*=\s*"?([^";\s]*)/i.exec(contentType ?? '')?.[1]?.toLowerCase();

export const isUtf8 = (charset: string | undefined): boolean => charset === undefined || charset === 'utf-8' || charset === 'utf8';

export type Body = { bytes: Buffer } | { tooLarge: true } | { undecodable: string };

// Once the answer is known, the rest of a body is read and dropped, up to this much, before the answer goes
// out: a client still sending would otherwise meet a reset connection instead of the answer. Past it, the
// answer goes out and the connection is closed.
const drainBytes = 16 * 1024 * 1024;

/** Reads the rest of the body and drops it (up to 16 MiB); resolves at its end, at that limit, or when the client goes. */
export function drain(req: IncomingMessage): Promise<void> {
  return new Promise((resolve) => {
    if (req.readableEnded || req.destroyed) return resolve();
    let dropped = 0;
    const onData = (chunk: Buffer) => {
      dropped += chunk.length;
      if (dropped >= drainBytes) done();
    };
    const done = () => {
      req.off('data', onData);
      resolve();
    };
    req.on('data', onData);
    req.on('end', done);
    req.on('close', done);
    req.on('error', done);
  });
}

// A compressed body can decode to nothing for ever (empty deflate blocks): its own bytes are capped as well,
// at this many times the limit, far above what any real compression adds.
const encodedSlack = 2;

/**
 * Reads the body, decoded, while it stays below `limit` bytes once decoded. Once the answer is known (too
 * large, undecodable) the rest is read and dropped as `drain` does. Rejects only when the client goes away
 * before the end.
 */
export function readBody(req: IncomingMessage, coding: Coding, limit: number): Promise<Body> {
  return new Promise((resolve, reject) => {
    const decoder = coding === 'identity' ? undefined : decoders[coding]();
    let chunks: Buffer[] = [];
    let decoded = 0;
    let encoded = 0;
    let dropped = 0;
    let ended = false;
    let verdict: Body | undefined;
    let settled = false;
    const settle = (body: Body) => {
      if (settled) return;
      settled = true;
      req.off('data', onEncoded);
      decoder?.destroy();
      resolve(body);
    };
    const judge = (body: Body) => {
      verdict ??= body;
      chunks = [];
      decoder?.destroy();
      if (ended) settle(verdict);
    };
    const onDecoded = (chunk: Buffer) => {
      if (verdict) return;
      decoded += chunk.length;
      if (decoded >= limit) judge({ tooLarge: true });
      else chunks.push(chunk);
    };
    const onEncoded = (chunk: Buffer) => {
      encoded += chunk.length;
      if (verdict) {
        dropped += chunk.length;
        if (dropped >= drainBytes) settle(verdict);
      } else if (encoded >= limit * encodedSlack) judge({ tooLarge: true });
      else if (decoder) decoder.write(chunk);
      else onDecoded(chunk);
    };
    req.on('data', onEncoded);
    req.on('end', () => {
      ended = true;
      if (verdict) settle(verdict);
      else if (decoder) decoder.end();
      else settle({ bytes: Buffer.concat(chunks) });
    });
    req.on('close', () => {
      if (!settled && !ended) reject(new Error('the client went away before the end of the body'));
    });
    req.on('error', (error) => settled || reject(error));
    decoder?.on('data', onDecoded);
    decoder?.on('end', () => settle(verdict ?? { bytes: Buffer.concat(chunks) }));
    decoder?.on('error', (error) => judge({ undecodable: error.message }));
  });
}

const bom = Buffer.from([0xef, 0xbb, 0xbf]);

/** The bytes without a leading UTF-8 byte-order mark (JSON.parse refuses one; the server accepts it). */
export const withoutBom = (bytes: Buffer): Buffer => (bytes.subarray(0, 3).equals(bom) ? bytes.subarray(3) : bytes);
