// Line-oriented data files read chunk by chunk (a use case's text formats): the lines are cut at LF (a CR before
// it dropped), a leading UTF-8 byte-order mark skipped, a line split across chunks carried; a line longer than
// MAX_LINE_BYTES is refused with its pointer, however the chunks cut it. Also the byte-level token helpers the
// readers share. The file is never held as one string.
import { InputError } from '../input-error.ts';

/** Longer lines are refused rather than buffered. */
const MAX_LINE_BYTES = 4096;
const SPACE = 32;
const TAB = 9;
const LF = 10;
const CR = 13;
const BOM = [0xef, 0xbb, 0xbf] as const;
const NUMBER = /^[+-]?(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?$/;
const POW10 = Float64Array.from({ length: 16 }, (_, k) => 10 ** k);

function lineTooLong(line: number): InputError {
  return new InputError(`Line ${line} is longer than ${MAX_LINE_BYTES} bytes.`, [
    { pointer: `/line/${line}`, detail: `the line is longer than ${MAX_LINE_BYTES} bytes` },
  ]);
}

/**
 * The most lines of three tokens ("i j w", say) `bytes` bytes can hold: each takes at least 5 bytes and a line feed,
 * but for the last. A text format's header can be refused for counts no data file could hold before any line is read.
 */
export function mostEntryLines(bytes: number): number {
  return Math.floor((bytes + 1) / 6);
}

/** What LineSplitter calls for each line: bytes [start, end) without its line ending; `line` counts from 1. */
export type OnLine = (buf: Uint8Array, start: number, end: number, line: number) => void;

/** Calls `onLine` for every line, in order. */
export class LineSplitter {
  /** Bytes of a line not yet ended by a newline. */
  private carry = new Uint8Array(256);
  private carryLength = 0;
  /** How many bytes of a leading BOM have been skipped (3 once past the start of the file). */
  private bomSeen = 0;
  /** Lines handed out so far. */
  private lines = 0;
  private readonly onLine: OnLine;

  constructor(onLine: OnLine) {
    this.onLine = onLine;
  }

  /** Lines handed out so far: 0 for an empty file. */
  get count(): number {
    return this.lines;
  }

  push(chunk: Uint8Array): void {
    let start = 0;
    if (this.bomSeen < 3) start = this.skipBom(chunk);
    while (start < chunk.length) {
      const newline = chunk.indexOf(LF, start);
      if (newline < 0) {
        this.append(chunk, start, chunk.length);
        return;
      }
      if (this.carryLength > 0) {
        this.append(chunk, start, newline);
        this.emit(this.carry, 0, this.carryLength);
        this.carryLength = 0;
      } else {
        this.emit(chunk, start, newline);
      }
      start = newline + 1;
    }
  }

  /** The end of the file: its last line, if it has no LF. */
  end(): void {
    if (this.bomSeen > 0 && this.bomSeen < 3) this.append(Uint8Array.from(BOM), 0, this.bomSeen); // a file of part of a BOM
    if (this.carryLength > 0) this.emit(this.carry, 0, this.carryLength);
    this.carryLength = 0;
  }

  private emit(buf: Uint8Array, start: number, end: number): void {
    const line = ++this.lines;
    if (end - start > MAX_LINE_BYTES) throw lineTooLong(line); // as for a line carried across chunks
    if (end > start && buf[end - 1] === CR) end--;
    this.onLine(buf, start, end, line);
  }

  /** Skips the bytes of a UTF-8 byte-order mark at the start of the file; returns where the data starts. */
  private skipBom(chunk: Uint8Array): number {
    let i = 0;
    while (this.bomSeen < 3 && i < chunk.length) {
      if (chunk[i] !== BOM[this.bomSeen]) {
        // Not a BOM after all: give back the bytes taken for one (the parser will refuse them).
        if (this.bomSeen > 0) this.append(Uint8Array.from(BOM), 0, this.bomSeen);
        this.bomSeen = 3;
        return i;
      }
      this.bomSeen++;
      i++;
    }
    return i;
  }

  private append(bytes: Uint8Array, from: number, to: number): void {
    const length = this.carryLength + (to - from);
    if (length > MAX_LINE_BYTES) throw lineTooLong(this.lines + 1);
    if (length > this.carry.length) {
      const grown = new Uint8Array(Math.max(length, this.carry.length * 2));
      grown.set(this.carry.subarray(0, this.carryLength));
      this.carry = grown;
    }
    this.carry.set(bytes.subarray(from, to), this.carryLength);
    this.carryLength = length;
  }
}

/**
 * Splits line [start, end) at spaces and tabs: the [start, end) of the first `bounds.length / 2` tokens in `bounds`,
 * and the count of all of them.
 */
export function tokens(buf: Uint8Array, start: number, end: number, bounds: Int32Array): number {
  const kept = bounds.length >> 1;
  let count = 0;
  let p = start;
  while (p < end) {
    let c = buf[p]!;
    if (c === SPACE || c === TAB) {
      p++;
      continue;
    }
    const s = p;
    while (p < end && (c = buf[p]!) !== SPACE && c !== TAB) p++;
    if (count < kept) {
      bounds[2 * count] = s;
      bounds[2 * count + 1] = p;
    }
    count++;
  }
  return count;
}

/** Digits only: their value (inexact past 2^53, which is out of any range here), else -1. */
export function unsigned(buf: Uint8Array, s: number, e: number): number {
  let v = 0;
  for (let p = s; p < e; p++) {
    const d = buf[p]! - 48;
    if (d < 0 || d > 9) return -1;
    v = v * 10 + d;
  }
  return v;
}

/**
 * A value: plain decimals of at most 15 digits directly (digits as an exact integer, divided by an exact power of
 * ten: one correctly rounded operation, as Number() gives), anything else through Number() after a strict decimal
 * check; NaN if not a number.
 */
export function decimal(buf: Uint8Array, s: number, e: number): number {
  let p = s;
  let negative = false;
  if (buf[p] === 45 /* - */) {
    negative = true;
    p++;
  } else if (buf[p] === 43 /* + */) p++;
  if (p < e && e - p <= 16) {
    let v = 0;
    let digits = 0;
    let dot = -1;
    for (; p < e; p++) {
      const c = buf[p]!;
      if (c === 46 /* . */ && dot < 0) {
        dot = p;
        continue;
      }
      const d = c - 48;
      if (d < 0 || d > 9) break;
      v = v * 10 + d;
      digits++;
    }
    if (p === e && digits > 0 && digits <= 15) {
      if (dot >= 0) v /= POW10[e - dot - 1]!;
      return negative ? -v : v;
    }
  }
  if (e - s > 400) return Number.NaN;
  const text = ascii(buf, s, e);
  return NUMBER.test(text) ? Number(text) : Number.NaN;
}

const decoder = new TextDecoder();

/** A token as a string (at most 200 bytes of it): short ASCII tokens without a decoder, for speed. */
export function ascii(buf: Uint8Array, s: number, e: number): string {
  e = Math.min(e, s + 200);
  if (e - s > 32) return decoder.decode(buf.subarray(s, e));
  let text = '';
  for (let p = s; p < e; p++) {
    const c = buf[p]!;
    if (c >= 128) return decoder.decode(buf.subarray(s, e));
    text += String.fromCharCode(c);
  }
  return text;
}

/** A control character (C0, DEL, C1): shown as its escape in a message, never as itself. */
const control = /[\u0000-\u001f\u007f-\u009f]/g;

/**
 * The bytes trimmed and quoted for a message, shortened past 80 characters (never between the two halves of a
 * character beyond U+FFFF), control characters shown as escapes (`\u0000`): a message quoting a NUL could not be
 * stored, and a file's validation failed for good (issue 27).
 */
export function quote(buf: Uint8Array, s: number, e: number): string {
  while (s < e && (buf[s] === SPACE || buf[s] === TAB)) s++;
  while (e > s && (buf[e - 1] === SPACE || buf[e - 1] === TAB)) e--;
  const characters = [...decoder.decode(buf.subarray(s, Math.min(e, s + 320)))];
  const text = characters.length > 80 ? characters.slice(0, 80).join('') + '…' : characters.join('');
  return `"${text.replace(control, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`)}"`;
}
