// The benchmark's inputs: random symmetric matrices as inline bodies, and the largest one below 4 MiB.
import { maxInlineBytes } from './settings.ts';

// ---------------------------------------------------------------------------------------------------
// Inputs

export function lcg(seed: number): () => number {
  let s = seed >>> 0;
  return () => (s = (Math.imul(s, 1664525) + 1013904223) >>> 0) / 2 ** 32;
}

/** A symmetric n × n matrix of integer weights 0…max (zero diagonal), as the inline JSON body. */
export function matrixBody(n: number, seed: number, max: number): string {
  const next = lcg(seed);
  const m = new Uint8Array(n * n);
  for (let i = 0; i < n; i++)
    for (let j = i + 1; j < n; j++) m[i * n + j] = m[j * n + i] = Math.floor(next() * (max + 1));
  const rows: string[] = [];
  for (let i = 0; i < n; i++) rows.push(`[${m.subarray(i * n, (i + 1) * n).join(',')}]`);
  return `{"num_nodes":${n},"adj_matrix":[${rows.join(',')}]}`;
}

/** The largest dense single-digit matrix body below 4 MiB, padded with spaces to 4,194,303 bytes. */
export function bigBody(): { body: Buffer; n: number } {
  const target = maxInlineBytes - 1;
  // Compact size: 2n² + 3n − 1 + header; pick the largest n that fits, then pad.
  let n = Math.floor(Math.sqrt(target / 2));
  while (matrixBody(n, 1, 9).length > target) n--;
  const text = matrixBody(n, 1, 9);
  const body = Buffer.alloc(target, 0x20);
  body.write(text, 0, 'utf8');
  return { body, n };
}
