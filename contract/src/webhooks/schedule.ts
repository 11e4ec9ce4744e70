// The contract's retry schedule (webhooks: jobEnded): after a failed attempt, the next comes 5 s, 5 min, 30 min,
// 2 h, 5 h, 10 h and 10 h later; after the eighth attempt fails the delivery is `failed` (more than 24 h in all).

/** The waits after attempts 1..7, in milliseconds. */
export const webhookRetryDelaysMs: readonly number[] = Object.freeze([
  5_000,
  5 * 60_000,
  30 * 60_000,
  2 * 3_600_000,
  5 * 3_600_000,
  10 * 3_600_000,
  10 * 3_600_000,
]);

/** Attempts in all: the first and one per retry. */
export const webhookMaxAttempts = webhookRetryDelaysMs.length + 1;

/**
 * The wait before the next attempt after `attempts` attempts have failed, or `null` when they have run out.
 * `delays` lets a test shorten the schedule while keeping its length.
 */
export function nextRetryDelayMs(attempts: number, delays: readonly number[] = webhookRetryDelaysMs): number | null {
  return attempts >= 1 && attempts <= delays.length ? (delays[attempts - 1] ?? null) : null;
}
