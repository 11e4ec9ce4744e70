// Durations in seconds are given to the millisecond in every answer (issue 13): the check the server's test
// (server/test/durations.test.ts) and the sandbox's examples (sandbox/test/sandbox-docs.test.ts) share.
import { expect } from 'vitest';

/** Every number under a member named `*_seconds` but a time limit, with its pointer. */
export function durations(value: unknown, where = ''): [string, number][] {
  if (Array.isArray(value)) return value.flatMap((v, i) => durations(v, `${where}/${i}`));
  if (!value || typeof value !== 'object') return [];
  return Object.entries(value).flatMap(([key, v]): [string, number][] =>
    key.endsWith('_seconds') && !key.includes('time_limit') && typeof v === 'number'
      ? [[`${where}/${key}`, v]]
      : durations(v, `${where}/${key}`),
  );
}

/** Every duration in `body` is whole milliseconds; there are at least `atLeast` of them. */
export function expectMilliseconds(body: unknown, atLeast = 0): void {
  const found = durations(body);
  expect(found.length).toBeGreaterThanOrEqual(atLeast);
  for (const [where, seconds] of found) expect([where, seconds]).toEqual([where, Math.round(seconds * 1000) / 1000]);
}
