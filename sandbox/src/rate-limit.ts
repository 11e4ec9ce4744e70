// The sandbox's rate limit (`--rate-limit 10/s`): a fixed window per client (its Authorization, else its
// address), counted as the reference server counts its `default` policy, and announced with the same IETF
// RateLimit-Policy and RateLimit headers (draft 8). Past the limit, the caller answers 429 `rate_limited`.
import type { Rate } from './durations.ts';

/** The policy name the contract gives the limit on every request (its `default`). */
const policy = 'default';

export interface Counted {
  allowed: boolean;
  /** Seconds until the window starts again (at least 1): the 429's Retry-After. */
  resetSeconds: number;
  headers: { 'RateLimit-Policy': string; RateLimit: string };
}

export function createRateLimit(rate: Rate, now: () => number = Date.now) {
  const windows = new Map<string, { start: number; count: number }>();
  const windowMs = rate.windowSeconds * 1000;
  /** Forgets the windows that have ended, so a stream of new tokens does not pile up. */
  const sweep = (at: number) => {
    for (const [key, window] of windows) if (at - window.start >= windowMs) windows.delete(key);
  };
  return {
    /** Counts one request of `key`. */
    take(key: string): Counted {
      const at = now();
      let window = windows.get(key);
      if (!window || at - window.start >= windowMs) {
        if (windows.size >= 10_000) sweep(at);
        window = { start: at, count: 0 };
        windows.set(key, window);
      }
      window.count += 1;
      const remaining = Math.max(0, rate.limit - window.count);
      const resetSeconds = Math.max(1, Math.ceil((window.start + windowMs - at) / 1000));
      return {
        allowed: window.count <= rate.limit,
        resetSeconds,
        headers: rateLimitHeaders(rate, remaining, resetSeconds),
      };
    },
  };
}

export const rateLimitHeaders = (rate: Rate, remaining: number, resetSeconds: number) => ({
  'RateLimit-Policy': `"${policy}";q=${rate.limit};w=${rate.windowSeconds}`,
  RateLimit: `"${policy}";r=${remaining};t=${resetSeconds}`,
});
