// Each execution's best value over the seconds since the job started running (best-over-time.ts), drawn by uPlot: one
// stepped line per solver, as a best value holds until a better one is found. The legend is the figure's own (uPlot's
// live one reads "--" until pointed at), and the values are there as a table too, for a screen reader and the tests.
import uPlot from 'uplot';
import 'uplot/dist/uPlot.min.css';
import { useEffect, useRef } from 'preact/hooks';
import type { Line } from '../best-over-time.ts';
import { number } from '../format.ts';

const palette = ['#1f6fb2', '#c2410c', '#15803d', '#7c3aed', '#b45309'];
const height = 220;

/** The y axis as wide as its longest tick label, so that its title never overlaps them (uPlot's is a fixed 50 px). */
function fitted(self: uPlot, values: string[] | null, axis: number, cycle: number): number {
  const { font, ticks, gap, _size } = self.axes[axis] as uPlot.Axis & { _size: number; font: string[] };
  if (cycle > 1) return _size;
  self.ctx.font = font[0]!;
  const widest = Math.max(0, ...(values ?? []).map((v) => self.ctx.measureText(v).width));
  // And a few pixels apart from the axis' title, which uPlot draws right against the axis' edge.
  return Math.ceil(ticks!.size! + gap! + widest / devicePixelRatio + 8);
}

/** How many values a series has (null where it has none at an x of another's). */
const shown = (values: ArrayLike<number | null | undefined> | undefined) =>
  Array.prototype.filter.call(values ?? [], (v) => v !== null && v !== undefined).length;

function aligned(lines: Line[]): uPlot.AlignedData {
  const xs = [...new Set(lines.flatMap((line) => line.points.map(([x]) => x)))].sort((a, b) => a - b);
  return [
    xs,
    ...lines.map((line) => {
      const at = new Map(line.points.map(([x, , y]) => [x, y]));
      return xs.map((x) => at.get(x) ?? null);
    }),
  ];
}

/** The chart: `lines` from best-over-time.ts's linesOf; `ended` whether the job has (for the words when it is empty). */
export function ProgressChart({ lines, ended }: { lines: Line[]; ended: boolean }) {
  const box = useRef<HTMLDivElement>(null);
  const solvers = lines.map((line) => line.solver);
  const drawn = lines.some((line) => line.points.length > 0);
  const plot = useRef<uPlot | undefined>(undefined);
  // One plot per set of solvers; new values (a live point, a read) are set on it rather than drawing it anew.
  useEffect(() => {
    if (!drawn) return;
    const element = box.current!;
    const made = new uPlot(
      {
        width: element.clientWidth,
        height,
        legend: { show: false },
        scales: { x: { time: false, range: (_, __, max) => [0, max > 0 ? max : 1] } },
        axes: [{ label: 'seconds since the job started running' }, { label: 'best value', size: fitted }],
        series: [
          {},
          ...solvers.map((name, i) => ({
            label: name,
            stroke: palette[i % palette.length]!,
            width: 2,
            spanGaps: true,
            paths: uPlot.paths.stepped!({ align: 1 }),
            // Dots where they stay apart: a lone first value shows, a long history reads as a line.
            points: { show: (self: uPlot, series: number) => shown(self.data[series]) <= 60 },
          })),
        ],
      },
      aligned(lines),
      element,
    );
    plot.current = made;
    // The page's width may change (a phone turned, a window narrowed): the chart follows its box.
    const resized = new ResizeObserver(() => made.setSize({ width: element.clientWidth, height }));
    resized.observe(element);
    return () => {
      resized.disconnect();
      made.destroy();
      plot.current = undefined;
    };
  }, [drawn, solvers.join('\n')]);
  useEffect(() => plot.current?.setData(aligned(lines)), [lines]);
  if (!drawn) return <p class="hint">{ended ? 'No solver reported a best value.' : 'No best value reported yet.'}</p>;
  return (
    <figure class="progress">
      <div
        ref={box}
        class="chart"
        role="img"
        aria-label="Best value of each solver over the seconds since the job started running; the values are in the table below"
      />
      <figcaption>
        {solvers.map((name, i) => (
          <span key={name} class="key">
            <span class="swatch" style={{ background: palette[i % palette.length] }} /> {name}
          </span>
        ))}
        <span class="hint">
          {' '}
          Seconds since the job started running, by the service's clock. A line steps up (or down) at each moment its
          solver found a better value, and holds its last one to the solver's end (while it runs, to the latest news).
        </span>
      </figcaption>
      <details>
        <summary>The values</summary>
        <table class="values">
          <thead>
            <tr>
              <th scope="col">Since the job started (s)</th>
              <th scope="col">Since the solver started (s)</th>
              <th scope="col">Best value</th>
            </tr>
          </thead>
          {/* A group of rows per solver, led by its name: three columns of numbers fit a phone's width. */}
          {lines
            .filter(({ points }) => points.length > 0)
            .map(({ solver, points }) => (
              <tbody key={solver}>
                <tr>
                  <th scope="rowgroup" colSpan={3}>
                    {solver}
                  </th>
                </tr>
                {points.map(([x, own, y]) => (
                  <tr key={x}>
                    <td>{x}</td>
                    <td>{own}</td>
                    <td>{number(y)}</td>
                  </tr>
                ))}
              </tbody>
            ))}
        </table>
      </details>
    </figure>
  );
}
