// Text a deployment sent, made safe to print on one line: its control characters shown as escapes (`\n`, `\u001b`),
// so that an answer can neither start a line of its own (under GitHub Actions, a line starting with `::` is a workflow
// command) nor send a terminal the escape sequences it obeys.

const control = /[\u0000-\u0008\u000a-\u001f\u007f-\u009f\u2028\u2029]/g;

const named: Record<string, string> = { '\n': '\\n', '\r': '\\r' };

export function printable(text: string): string {
  return text.replace(control, (c) => named[c] ?? `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
}
