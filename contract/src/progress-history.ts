// An execution's progress history (the contract's `progress_history`): the moments a solver first found a better
// value, kept within a bound by the server and the sandbox alike. When the bound is passed, every other point
// between the first and the last is dropped, so each point kept is still a first moment and the history spans the
// whole run at half the density.

/** The most points a history holds (the contract's maxItems). */
export const maxProgressPoints = 256;

export interface ProgressPoint {
  /** Seconds since the execution started running, to the millisecond. */
  seconds: number;
  best_value: number;
}

/**
 * The history with `point` added when its value differs from the last one's (a repeat of the best value is no
 * improvement), thinned to the bound. Returns the same array when nothing changed.
 */
export function withProgress(history: readonly ProgressPoint[], point: ProgressPoint): readonly ProgressPoint[] {
  if (history.at(-1)?.best_value === point.best_value) return history;
  const next = [...history, { seconds: Math.round(point.seconds * 1000) / 1000, best_value: point.best_value }];
  if (next.length <= maxProgressPoints) return next;
  // Keep the first and the last; of those between, every other one.
  return next.filter((_, i) => i === 0 || i === next.length - 1 || i % 2 === 0);
}
