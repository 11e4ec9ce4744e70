// A table of rows (jobs, data files, executions, …) that still reads on a phone: below 640 px (style.css) each row
// is a block of its cells, each cell led by its column's heading, instead of columns wider than the screen.
import type { ComponentChildren } from 'preact';

/** A column: its heading (empty for a column of buttons) and the cell it makes of a row. */
export type Column<T> = [heading: string, cell: (row: T) => ComponentChildren];

export function Table<T>({
  columns,
  rows,
  keyOf,
  name,
}: {
  columns: Column<T>[];
  rows: T[];
  keyOf: (row: T) => string;
  /** The table's class, for the tests and the page's own styles. */
  name?: string;
}) {
  const [[, first], ...rest] = columns as [Column<T>, ...Column<T>[]];
  return (
    <table class={`rows ${name ?? ''}`}>
      <thead>
        <tr>
          {columns.map(([heading], i) => (
            <th key={i} scope="col">
              {heading || <span class="visually-hidden">Actions</span>}
            </th>
          ))}
        </tr>
      </thead>
      <tbody>
        {rows.map((row) => (
          <tr key={keyOf(row)}>
            <th scope="row">{first(row)}</th>
            {rest.map(([heading, cell], i) => (
              <td key={i} data-label={heading || undefined}>
                {cell(row)}
              </td>
            ))}
          </tr>
        ))}
      </tbody>
    </table>
  );
}
