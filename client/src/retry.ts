// Retrying a request that started work (a job, an upload) when a retry may cure its failure: the network
// failed (fetch rejected: the answer may have been lost after the service acted), or a gateway or the
// service said it is briefly unavailable (502, 503, 504). Safe because every try carries the same
// Idempotency-Key: the service answers a retry of an accepted request with its first answer.
import type { Result } from './types.ts';

export interface RetryOptions {
  /** Tries in all, the first included (default 4). 1 turns retrying off. */
  tries?: number;
  /** The first pause in milliseconds, doubled after each failure, with jitter (default 500). */
  delayMs?: number;
  /** The longest pause; a longer `Retry-After` is not waited for, its answer is returned (default 30 000). */
  maxDelayMs?: number;
  /** Stops waiting and sending: the call rejects with the signal's reason. */
  signal?: AbortSignal;
}

const retriedStatuses = new Set([502, 503, 504]);

/**
 * A fresh Idempotency-Key: a random (version 4) UUID, the draft's recommendation. Browsers offer
 * crypto.randomUUID only in secure contexts (https, localhost); a page served over plain http still has
 * crypto.getRandomValues.
 */
export function newIdempotencyKey(): string {
  if (typeof crypto.randomUUID === 'function') return crypto.randomUUID();
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  bytes[6] = (bytes[6]! & 0x0f) | 0x40;
  bytes[8] = (bytes[8]! & 0x3f) | 0x80;
  const hex = Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

/**
 * The key of a request made on behalf of another one (the upload a start makes first): derived from the
 * other's key, so retrying the whole start replays both; a new one when the derived key would be too long.
 */
export function derivedKey(key: string, purpose: string): string {
  const derived = `${key}/${purpose}`;
  return derived.length <= 255 ? derived : newIdempotencyKey();
}

/** The pause `Retry-After` asks for in milliseconds (seconds or an HTTP date), or undefined. */
function retryAfter(response: Response): number | undefined {
  const value = response.headers.get('retry-after')?.trim();
  if (!value) return undefined;
  if (/^\d+$/.test(value)) return Number(value) * 1000;
  const date = Date.parse(value);
  return Number.isNaN(date) ? undefined : Math.max(0, date - Date.now());
}

function pause(ms: number, signal: AbortSignal | undefined): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason);
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal!.reason);
    };
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}

/**
 * Sends with `send` until it succeeds, fails in a way a retry cannot cure, or the tries run out. The last
 * answer is returned; the last network error is thrown (as fetch throws it). An aborted signal is never retried.
 */
export async function withRetries<T>(send: () => Promise<Result<T>>, options: RetryOptions = {}): Promise<Result<T>> {
  const { tries = 4, delayMs = 500, maxDelayMs = 30_000, signal } = options;
  for (let attempt = 1; ; attempt++) {
    const backoff = Math.min(maxDelayMs, delayMs * 2 ** (attempt - 1));
    const jittered = backoff / 2 + Math.random() * (backoff / 2);
    let result: Result<T>;
    try {
      result = await send();
    } catch (error) {
      if (signal?.aborted || !(error instanceof TypeError) || attempt >= tries) throw error;
      await pause(jittered, signal);
      continue;
    }
    if (!result.error || !retriedStatuses.has(result.response.status) || attempt >= tries) return result;
    const asked = retryAfter(result.response);
    if (asked !== undefined && asked > maxDelayMs) return result;
    await pause(asked ?? jittered, signal);
  }
}
