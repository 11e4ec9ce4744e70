// Comparing objective values a deployment computed with the suite's own: equal up to the noise of summing
// many floating-point weights in another order.

/** Equal up to floating-point noise in sums of many weights. */
export function sameValue(a: number, b: number): boolean {
  return Math.abs(a - b) <= 1e-6 * Math.max(1, Math.abs(a), Math.abs(b));
}
