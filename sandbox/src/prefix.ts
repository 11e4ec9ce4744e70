// The head of a stream, read up to a bound and no further: what the validation proxy checks of a body it passes
// on. Past the bound the stream is paused with the rest unread, so the head and the rest can still be sent on
// whole (a 100 MiB upload never sits in memory).
import type { Readable } from 'node:stream';
import { withoutBom } from './body.ts';

export interface Prefix {
  chunks: Buffer[];
  /** The whole stream was read (its end was reached within the bound). */
  whole: boolean;
}

/** Reads `stream` until its end or until more than `max` bytes came; rejects if it fails or closes first. */
export function readPrefix(stream: Readable, max: number): Promise<Prefix> {
  return new Promise((resolve, reject) => {
    if (stream.readableEnded) return resolve({ chunks: [], whole: true });
    const chunks: Buffer[] = [];
    let size = 0;
    const settle = (whole: boolean, error?: Error) => {
      stream.off('data', onData).off('end', onEnd).off('error', onError).off('close', onClose);
      if (error) reject(error);
      else resolve({ chunks, whole });
    };
    const onData = (chunk: Buffer) => {
      chunks.push(chunk);
      size += chunk.length;
      if (size > max) {
        stream.pause();
        settle(false);
      }
    };
    const onEnd = () => settle(true);
    const onError = (error: Error) => settle(false, error);
    const onClose = () => settle(false, new Error('the stream closed before its end'));
    stream.on('data', onData).once('end', onEnd).once('error', onError).once('close', onClose);
  });
}

/** A whole JSON body as a value, or why it is not one. */
export function parseJson(chunks: Buffer[]): { value: unknown } | { error: string } {
  try {
    return { value: JSON.parse(withoutBom(Buffer.concat(chunks)).toString('utf8')) };
  } catch (error) {
    return { error: (error as Error).message };
  }
}
