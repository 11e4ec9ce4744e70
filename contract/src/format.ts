// Instants as the contract writes them (the server and the sandbox write them alike): `MM/DD/YYYY, HH:MM:SS` in UTC, and RFC 3339 (UTC, milliseconds); and
// durations in seconds, to the millisecond.

const two = (n: number) => String(n).padStart(2, '0');

/** `MM/DD/YYYY, HH:MM:SS` in UTC, or "" when there is no instant yet. */
export function documentedTimestamp(date: Date | null | undefined): string {
  if (!date) return '';
  return `${two(date.getUTCMonth() + 1)}/${two(date.getUTCDate())}/${date.getUTCFullYear()}, ${two(date.getUTCHours())}:${two(date.getUTCMinutes())}:${two(date.getUTCSeconds())}`;
}

/** RFC 3339 in UTC, or null when there is no instant yet. */
export function rfc3339(date: Date | null | undefined): string | null {
  return date ? date.toISOString() : null;
}

/** Seconds to the millisecond, as every duration is given (`0.000103524` is `0`, `1.23456` is `1.235`). */
export const toMillisecond = (seconds: number): number => Math.round(seconds * 1000) / 1000;
