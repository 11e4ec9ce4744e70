// Text for a jsonb column. PostgreSQL and PGlite refuse a NUL character (`\u0000`) and a lone surrogate in jsonb,
// so a string holding one (a message quoting a data file's bytes, say) made every try of the write fail: a file
// stayed PROCESSING for good (issue 27). Such characters are written as their escape, as visible text.

/** A NUL, a high surrogate with no low one after it, or a low one with no high one before it. */
const unstorable = /\0|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g;

const escape = (c: string) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`;

/** A string as jsonb can hold it: each unstorable character as its `\uXXXX` escape, in plain text. */
export const storableString = (text: string): string => text.replace(unstorable, escape);

/** JSON text of `value` that jsonb accepts whatever its strings hold. For errors and answers, not large outputs. */
export function jsonText(value: unknown): string {
  return JSON.stringify(value, (_key, inner: unknown) => (typeof inner === 'string' ? storableString(inner) : inner));
}
