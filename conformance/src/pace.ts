// --rate-limit: the run paces its own requests (as Schemathesis' option of that name) so that a rate-limited
// deployment is not sent what it would refuse with 429. Requests start evenly spaced, never faster than the
// rate; the clock and the sleep are passed in so that the spacing can be tested without waiting.

const units: Record<string, number> = { s: 1, m: 60, h: 3600 };

/** Requests per second of `10/s`, `600/m` or `3600/h`; undefined when `text` is not of that form. */
export function parseRate(text: string): number | undefined {
  const match = /^\s*(\d+(?:\.\d+)?)\s*\/\s*([smh])\s*$/.exec(text);
  const count = Number(match?.[1]);
  return match && count > 0 ? count / units[match[2]!]! : undefined;
}

/** The rate as the heading shows it: `10 requests/s`. */
export function rateText(text: string): string {
  const match = /^\s*(\d+(?:\.\d+)?)\s*\/\s*([smh])\s*$/.exec(text);
  return match ? `${match[1]} requests/${match[2]}` : text;
}

export interface Clock {
  now(): number;
  sleep(ms: number): Promise<void>;
}

const realClock: Clock = {
  now: () => performance.now(),
  sleep: (ms) => new Promise((resolve) => setTimeout(resolve, ms)),
};

/** A function to await before each request: it resolves when the request may start. */
export function pacer(perSecond: number, clock: Clock = realClock): () => Promise<void> {
  const interval = 1000 / perSecond;
  let next = -Infinity;
  return async () => {
    const now = clock.now();
    const at = Math.max(now, next);
    next = at + interval;
    if (at > now) await clock.sleep(at - now);
  };
}
