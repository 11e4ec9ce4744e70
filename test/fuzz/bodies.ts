// Request bodies as bytes: JSON text that may hold what JSON.stringify cannot write (a number token such as
// 1e400 or 2**64 kept exact, a member name twice, text nested 10,000 deep), and multipart/form-data forms
// that may be cut short, lack a boundary, or name their parts oddly.

const rawMark = Symbol('raw JSON text');
const pairsMark = Symbol('members in order');

/** JSON text inserted as is: `raw('1e400')`, `raw('['.repeat(10_000) + ']'.repeat(10_000))`. */
export interface RawJson {
  [rawMark]: string;
}
/** An object written from its members in order, names repeated or not. */
export interface Pairs {
  [pairsMark]: [string, Json][];
}
export type Json = null | boolean | number | string | RawJson | Pairs | Json[] | { [name: string]: Json };

export const raw = (text: string): RawJson => ({ [rawMark]: text });
export const pairs = (members: [string, Json][]): Pairs => ({ [pairsMark]: members });

const isRaw = (value: unknown): value is RawJson => typeof value === 'object' && value !== null && rawMark in value;
const isPairs = (value: unknown): value is Pairs => typeof value === 'object' && value !== null && pairsMark in value;

/** The JSON text of `value` (strings escaped by JSON.stringify, so lone surrogates come out as \udxxx). */
export function jsonText(value: Json | undefined): string {
  if (value === undefined) return 'null';
  if (isRaw(value)) return value[rawMark];
  if (isPairs(value)) return `{${value[pairsMark].map(([k, v]) => `${JSON.stringify(k)}:${jsonText(v)}`).join(',')}}`;
  if (Array.isArray(value)) return `[${value.map(jsonText).join(',')}]`;
  if (value !== null && typeof value === 'object')
    return `{${Object.entries(value)
      .map(([k, v]) => `${JSON.stringify(k)}:${jsonText(v)}`)
      .join(',')}}`;
  return JSON.stringify(value);
}

/** A short, printable description of `value` for reports. */
export function jsonPreview(value: Json | undefined, max = 160): string {
  const text = jsonText(value);
  return text.length > max ? `${text.slice(0, max)}… (${text.length} characters)` : text;
}

/** Nested arrays, objects or both, `depth` deep, around `core`. */
export function nested(kind: 'array' | 'object' | 'mixed', depth: number, core = '1'): string {
  const open = { array: '[', object: '{"a":', mixed: '[{"a":' }[kind];
  const close = { array: ']', object: '}', mixed: '}]' }[kind];
  const times = kind === 'mixed' ? Math.ceil(depth / 2) : depth;
  return open.repeat(times) + core + close.repeat(times);
}

export interface Part {
  /** The `name` of Content-Disposition; undefined leaves the parameter out. */
  name?: string;
  /** The `filename`; undefined leaves it out (the part is then a text field to most parsers). */
  filename?: string;
  contentType?: string;
  /** Replaces the part's headers entirely when given. */
  headers?: string[];
  data: string | Buffer;
}

export interface FormOptions {
  boundary?: string;
  /** Leave out the closing boundary (a body cut short). */
  truncated?: boolean;
  /** Line ends (LF alone is a protocol error some parsers tolerate). */
  eol?: string;
  preamble?: string;
}

const quote = (text: string) => `"${text.replaceAll('"', '%22')}"`;

/** A multipart/form-data body and the boundary its Content-Type must name. */
export function form(parts: Part[], options: FormOptions = {}): { boundary: string; body: Buffer } {
  const boundary = options.boundary ?? 'fuzz-boundary-7MA4YWxkTrZu0gW';
  const eol = options.eol ?? '\r\n';
  const chunks: Buffer[] = [];
  if (options.preamble !== undefined) chunks.push(Buffer.from(options.preamble + eol));
  for (const part of parts) {
    const disposition = [
      'form-data',
      ...(part.name !== undefined ? [`name=${quote(part.name)}`] : []),
      ...(part.filename !== undefined ? [`filename=${quote(part.filename)}`] : []),
    ].join('; ');
    const headers = part.headers ?? [
      `Content-Disposition: ${disposition}`,
      ...(part.contentType ? [`Content-Type: ${part.contentType}`] : []),
    ];
    chunks.push(
      Buffer.from(`--${boundary}${eol}${headers.join(eol)}${eol}${eol}`),
      Buffer.from(part.data),
      Buffer.from(eol),
    );
  }
  if (!options.truncated) chunks.push(Buffer.from(`--${boundary}--${eol}`));
  return { boundary, body: Buffer.concat(chunks) };
}
