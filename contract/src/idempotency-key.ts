// The Idempotency-Key request header's value (draft-ietf-httpapi-idempotency-key-header) as the key it names: the
// quoted Structured Field string `"..."` names the same key as the bare value. The server and the sandbox read it so.

/** The draft's Structured Field string: `"..."` with `\"` and `\\` as its only escapes. */
const sfString = /^"((?:[ !#-[\]-~]|\\["\\])*)"$/;

/** A key has at most this many characters, once unquoted. */
export const maxIdempotencyKeyLength = 255;

/** The key a header value names: unquoted when it is a Structured Field string, else the value itself. */
export function idempotencyKeyOf(value: string): string {
  const quoted = sfString.exec(value);
  return quoted ? quoted[1]!.replace(/\\(["\\])/g, '$1') : value;
}
