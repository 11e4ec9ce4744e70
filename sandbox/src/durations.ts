// The scenario settings as written on the command line and in `Prefer`: a latency (`200ms`, `2s`, a range
// `100-400ms`), a rate (`10/s`, `60/min`, `5/10s`) and a fraction of requests (`0.1`, `10%`). Each parser
// answers undefined for a value it cannot read, and the caller says where it was.

/** A latency in milliseconds, drawn anew per answer when min < max. */
export interface Latency {
  min: number;
  max: number;
}

const units: Record<string, number> = { ms: 1, s: 1000 };

/** `300ms`, `2s`, `300` (milliseconds), `100-400ms`; at most ten minutes. */
export function parseLatency(text: string): Latency | undefined {
  const match = /^\s*(\d+(?:\.\d+)?)(?:\s*(ms|s))?(?:\s*-\s*(\d+(?:\.\d+)?))?\s*(ms|s)?\s*$/.exec(text);
  if (!match) return undefined;
  const [, first, firstUnit, second, unit] = match;
  if (firstUnit && second !== undefined) return undefined;
  const scale = units[(second === undefined ? (firstUnit ?? unit) : unit) ?? 'ms']!;
  const min = Math.round(Number(first) * scale);
  const max = second === undefined ? min : Math.round(Number(second) * scale);
  return min <= max && max <= 600_000 ? { min, max } : undefined;
}

/** A rate limit: `limit` requests per `windowSeconds`. */
export interface Rate {
  limit: number;
  windowSeconds: number;
}

const windows: Record<string, number> = { s: 1, sec: 1, second: 1, m: 60, min: 60, minute: 60, h: 3600, hour: 3600 };

/** `10/s`, `60/min`, `100/h`, `5/10s` (five per ten seconds). */
export function parseRate(text: string): Rate | undefined {
  const match = /^\s*(\d+)\s*\/\s*(\d*)\s*([a-z]+)\s*$/i.exec(text);
  if (!match) return undefined;
  const [, limit, count, unit] = match as unknown as [string, string, string, string];
  const seconds = windows[unit.toLowerCase()];
  const windowSeconds = (count ? Number(count) : 1) * (seconds ?? NaN);
  return Number(limit) >= 1 && windowSeconds >= 1 ? { limit: Number(limit), windowSeconds } : undefined;
}

/** `0.1` or `10%`: a fraction between 0 and 1. */
export function parseFraction(text: string): number | undefined {
  const match = /^\s*(\d+(?:\.\d+)?)\s*(%?)\s*$/.exec(text);
  if (!match) return undefined;
  const value = Number(match[1]) / (match[2] ? 100 : 1);
  return value >= 0 && value <= 1 ? value : undefined;
}
