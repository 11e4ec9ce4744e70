// How times, sizes and JSON read on the pages: a timestamp as the API gives it (UTC, ISO 8601) and in the browser's
// own time zone; bytes in binary units; an example input laid out a row to a line.
export function localTime(iso: string | null | undefined): string {
  if (!iso) return '—';
  const date = new Date(iso);
  return Number.isNaN(date.getTime()) ? iso : date.toLocaleString(undefined, { timeZoneName: 'short' });
}

export function bytes(count: number): string {
  if (count < 1024) return `${count} B`;
  const units = ['KiB', 'MiB', 'GiB'];
  let value = count / 1024;
  let unit = 0;
  while (value >= 1024 && unit < units.length - 1) {
    value /= 1024;
    unit++;
  }
  return `${value.toFixed(value < 10 ? 1 : 0)} ${units[unit]}`;
}

export const number = (value: number | null | undefined) =>
  value === null || value === undefined ? '—' : value.toLocaleString(undefined, { maximumFractionDigits: 6 });

/** JSON as a person lays it out: two-space indents, and an array of plain values (a matrix's row) on one line. */
export function compactJson(value: unknown, indent = ''): string {
  if (value === null || typeof value !== 'object') return JSON.stringify(value);
  if (Array.isArray(value) && value.every((v) => v === null || typeof v !== 'object'))
    return `[${value.map((v) => JSON.stringify(v)).join(', ')}]`;
  const inner = `${indent}  `;
  const lines = Array.isArray(value)
    ? value.map((v) => inner + compactJson(v, inner))
    : Object.entries(value).map(([k, v]) => `${inner}${JSON.stringify(k)}: ${compactJson(v, inner)}`);
  const [open, close] = Array.isArray(value) ? ['[', ']'] : ['{', '}'];
  return lines.length === 0 ? open + close : `${open}\n${lines.join(',\n')}\n${indent}${close}`;
}
