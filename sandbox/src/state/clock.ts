// The simulated clock: a job's phases are planned in simulated seconds (a heuristic runs to its time limit, as a
// deployment's do) and happen `speed` times faster on the wall clock, so that a client sees every state without
// waiting for them. Instants shown (timestamps, durations) are the wall clock's: they agree with the Date header.

export interface Clock {
  /** The wall clock, in milliseconds. */
  now(): number;
  /** Wall milliseconds for `seconds` of simulated time. */
  wallMs(seconds: number): number;
}

/** How many times faster than a deployment the sandbox's jobs run by default (`--speed`). */
export const defaultSpeed = 10;

export function createClock(speed: number = defaultSpeed, now: () => number = Date.now): Clock {
  return { now, wallMs: (seconds) => Math.round((seconds * 1000) / speed) };
}
