// Plain-text layout for people: aligned tables, label/value blocks, and short numbers.

/** Columns separated by two spaces, each as wide as its widest cell. */
export function table(headers: string[], rows: string[][]): string {
  const widths = headers.map((header, i) => Math.max(header.length, ...rows.map((row) => (row[i] ?? '').length)));
  const line = (cells: string[]) =>
    cells
      .map((cell, i) => cell.padEnd(widths[i] ?? 0))
      .join('  ')
      .trimEnd();
  return [line(headers), ...rows.map(line)].join('\n') + '\n';
}

/** `Label   value` lines, the values (and their own further lines) aligned; undefined values are left out. */
export function fields(pairs: [string, string | undefined][]): string {
  const shown = pairs.filter((pair): pair is [string, string] => pair[1] !== undefined);
  const width = Math.max(...shown.map(([label]) => label.length));
  return (
    shown
      .map(([label, value]) => `${label.padEnd(width)}  ${value.replaceAll('\n', `\n${' '.repeat(width + 2)}`)}`)
      .join('\n') + '\n'
  );
}

export const none = '-';

/** A number of seconds for reading: `0.002 s`, `12.3 s`, `4:05`. */
export function seconds(value: number | null | undefined): string {
  if (value === null || value === undefined) return none;
  if (value < 1) return `${value.toFixed(3)} s`;
  if (value < 60) return `${value.toFixed(1)} s`;
  const whole = Math.round(value);
  return `${Math.floor(whole / 60)}:${String(whole % 60).padStart(2, '0')}`;
}

export function text(value: string | number | boolean | null | undefined): string {
  if (value === null || value === undefined || value === '') return none;
  if (typeof value === 'boolean') return value ? 'yes' : 'no';
  return String(value);
}

export function json(value: unknown): string {
  return JSON.stringify(value, null, 2) + '\n';
}
