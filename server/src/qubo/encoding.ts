// The prepared QUBO as bytes, to store: a 16-byte header (format version, n, couplings), then the Float64Arrays
// (diagonal, couplings) and the Int32Arrays (offsets, columns) in the platform's byte order (little-endian wherever
// Node runs). The header keeps the doubles at 8-byte offsets, so decoding views one aligned copy of the bytes, in a
// SharedArrayBuffer: a solver thread is then given the input without copying it (as maxcut/graph-bytes.ts).
import type { QuboInput } from '../../../contract/src/inputs/qubo/input.ts';

const VERSION = 1;
const HEADER_BYTES = 16;

/** The length encodeQubo gives, without encoding. */
export function encodedQuboBytes({ n, columns }: QuboInput): number {
  return quboBytes(n, columns.length);
}

/** The length encodeQubo gives for n variables and m couplings (known before the couplings are gathered). */
export function quboBytes(n: number, m: number): number {
  return HEADER_BYTES + 8 * (n + m) + 4 * (n + 1 + m);
}

export function encodeQubo(input: QuboInput): Uint8Array {
  const { n, diagonal, offsets, columns, couplings } = input;
  const m = columns.length;
  const bytes = new Uint8Array(encodedQuboBytes(input));
  const header = new DataView(bytes.buffer);
  header.setUint32(0, VERSION, true);
  header.setUint32(4, n, true);
  header.setUint32(8, m, true);
  const layout = views(bytes.buffer, n, m);
  layout.diagonal.set(diagonal);
  layout.couplings.set(couplings);
  layout.offsets.set(offsets);
  layout.columns.set(columns);
  return bytes;
}

/** The QUBO encodeQubo wrote; throws on bytes it did not write (another version, a wrong length). */
export function decodeQubo(bytes: Uint8Array): QuboInput {
  const copy = new Uint8Array(new SharedArrayBuffer(bytes.length)); // aligned, unlike a Buffer in Node's pool
  copy.set(bytes);
  if (copy.length < HEADER_BYTES) throw new Error('A stored QUBO is shorter than its header.');
  const header = new DataView(copy.buffer);
  const version = header.getUint32(0, true);
  const n = header.getUint32(4, true);
  const m = header.getUint32(8, true);
  if (version !== VERSION) throw new Error(`A stored QUBO has format version ${version}; expected ${VERSION}.`);
  if (copy.length !== HEADER_BYTES + 8 * (n + m) + 4 * (n + 1 + m))
    throw new Error(`A stored QUBO of ${n} variables and ${m} couplings has ${copy.length} bytes.`);
  return { n, ...views(copy.buffer, n, m) };
}

function views(buffer: ArrayBufferLike, n: number, m: number): Omit<QuboInput, 'n'> {
  let at = HEADER_BYTES;
  const take = <T>(make: (at: number) => T, bytes: number): T => {
    const view = make(at);
    at += bytes;
    return view;
  };
  const diagonal = take((at) => new Float64Array(buffer, at, n), 8 * n);
  const couplings = take((at) => new Float64Array(buffer, at, m), 8 * m);
  const offsets = take((at) => new Int32Array(buffer, at, n + 1), 4 * (n + 1));
  const columns = take((at) => new Int32Array(buffer, at, m), 4 * m);
  return { diagonal, offsets, columns, couplings };
}
