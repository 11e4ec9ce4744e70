// The solver benchmarks' markdown tables (bench:maxcut, bench:qubo) and the figures in them: a table with the
// first column left-aligned and the rest right-aligned, means, medians, and seconds where "—" means never.

export function table(header: string[], lines: (string | number)[][]): string {
  const out = [`| ${header.join(' | ')} |`, `|${header.map((_, i) => (i === 0 ? '---' : '---:')).join('|')}|`];
  for (const line of lines) out.push(`| ${line.join(' | ')} |`);
  return out.join('\n');
}

export const mean = (xs: number[]): number => xs.reduce((a, b) => a + b, 0) / xs.length;

/** The median; Infinity (a run that never got there) sorts last, so it is the median when half the runs are. */
export function median(xs: number[]): number {
  const sorted = [...xs].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
}

/** Seconds to two decimals, "—" for Infinity (not reached). */
export const seconds = (s: number): string => (Number.isFinite(s) ? s.toFixed(2) : '—');
