// Shell words for the reproduce lines: any text quoted so that bash or zsh reads it back byte for byte, and
// secrets (a password) left in variables, so that a command can be pasted as is and printed in a CI log.

/** Text, or a shell expression that stands for a secret (`$JES_CONFORMANCE_PASSWORD`), in double quotes. */
export type Segment = string | { expression: string };

const bare = /^[A-Za-z0-9_/.:=@%+,-]+$/;
const control = /[\u0000-\u001f\u007f]/;

/** One word for `text`: bare when that is safe, '…' when printable, $'…' (bash, zsh) when it holds control characters. */
export function quote(text: string): string {
  if (bare.test(text)) return text;
  if (!control.test(text)) return `'${text.replaceAll("'", `'\\''`)}'`;
  const escaped = [...text].map((c) => {
    if (c === '\\' || c === "'") return `\\${c}`;
    if (c === '\n') return '\\n';
    if (c === '\r') return '\\r';
    if (c === '\t') return '\\t';
    if (c === '!') return '\\x21'; // never a history expansion of an interactive bash
    return control.test(c) ? `\\x${c.charCodeAt(0).toString(16).padStart(2, '0')}` : c;
  });
  return `$'${escaped.join('')}'`;
}

/** One word of text and secrets: `'{"password":"'"$JES_CONFORMANCE_PASSWORD"'"}'`. */
export function word(segments: readonly Segment[]): string {
  const parts = segments.filter((s) => s !== '').map((s) => (typeof s === 'string' ? quote(s) : `"${s.expression}"`));
  return parts.length ? parts.join('') : "''";
}

/** `text` split where a secret occurs, each occurrence replaced by its expression (the longest secret first). */
export function segmentsOf(text: string, secrets: readonly { value: string; expression: string }[]): Segment[] {
  const found = secrets
    .filter((s) => s.value !== '' && text.includes(s.value))
    .sort((a, b) => b.value.length - a.value.length);
  let segments: Segment[] = [text];
  for (const secret of found) {
    segments = segments.flatMap((segment) => {
      if (typeof segment !== 'string') return [segment];
      return segment
        .split(secret.value)
        .flatMap((piece, i) => (i === 0 ? [piece] : [{ expression: secret.expression }, piece]));
    });
  }
  return segments;
}
