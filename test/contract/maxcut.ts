// Small reference computations for checking the contract's examples: the cut of a partition is the contract's own
// (@jes/contract), the optimum by enumeration the conformance suite's.
export { cutValue } from '@jes/contract';
export { bruteForceMaxCut } from '../../conformance/src/maxcut.ts';

/** An RFC 3339 instant in the documented `MM/DD/YYYY, HH:MM:SS` form (UTC). */
export function formatTimestamp(rfc3339: string | null | undefined): string | undefined {
  if (!rfc3339) return undefined;
  const d = new Date(rfc3339);
  const two = (n: number) => String(n).padStart(2, '0');
  return `${two(d.getUTCMonth() + 1)}/${two(d.getUTCDate())}/${d.getUTCFullYear()}, ${two(d.getUTCHours())}:${two(d.getUTCMinutes())}:${two(d.getUTCSeconds())}`;
}
