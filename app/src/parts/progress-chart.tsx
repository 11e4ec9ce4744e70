// Each execution's best value over the seconds since it started (best-over-time.ts), drawn by uPlot: one stepped line
// per solver, as a best value holds until a better one is found. The legend is the figure's own (uPlot's live one
// reads "--" until pointed at), and the values are there as a table too, for a screen reader and for the tests.
import uPlot from 'uplot';
import 'uplot/dist/uPlot.min.css';
import { useEffect, useRef } from 'preact/hooks';
import type { Trace } from '../best-over-time.ts';
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

function aligned(trace: Trace, solvers: string[]): uPlot.AlignedData {
  const xs = [...new Set(solvers.flatMap((s) => trace[s]!.map(([x]) => x)))].sort((a, b) => a - b);
  return [
    xs,
    ...solvers.map((s) => {
      const at = new Map(trace[s]);
      return xs.map((x) => at.get(x) ?? null);
    }),
  ];
}

export function ProgressChart({ trace, ended }: { trace: Trace; ended: boolean }) {
  const box = useRef<HTMLDivElement>(null);
  const solvers = Object.keys(trace);
  const drawn = solvers.some((s) => trace[s]!.length > 0);
  useEffect(() => {
    if (!drawn) return;
    const element = box.current!;
    const plot = new uPlot(
      {
        width: element.clientWidth,
        height,
        legend: { show: false },
        scales: { x: { time: false, range: (_, __, max) => [0, max > 0 ? max : 1] } },
        axes: [{ label: 'seconds since the solver started' }, { label: 'best value', size: fitted }],
        series: [
          {},
          ...solvers.map((name, i) => ({
            label: name,
            stroke: palette[i % palette.length]!,
            width: 2,
            spanGaps: true,
            paths: uPlot.paths.stepped!({ align: 1 }),
            points: { show: true },
          })),
        ],
      },
      aligned(trace, solvers),
      element,
    );
    // The page's width may change (a phone turned, a window narrowed): the chart follows its box.
    const resized = new ResizeObserver(() => plot.setSize({ width: element.clientWidth, height }));
    resized.observe(element);
    return () => {
      resized.disconnect();
      plot.destroy();
    };
  }, [trace]);
  if (!drawn) return <p class="hint">{ended ? 'No solver reported a best value.' : 'No best value reported yet.'}</p>;
  return (
    <figure class="progress">
      <div ref={box} class="chart" role="img" aria-label="Best value over the seconds since each solver started" />
      <figcaption>
        {solvers.map((name, i) => (
          <span key={name} class="key">
            <span class="swatch" style={{ background: palette[i % palette.length] }} /> {name}
          </span>
        ))}
        <span class="hint">
          {' '}
          Seconds since each solver started, by the service's clock. An ended solver's line runs from when it found its
          final value to its end.
        </span>
      </figcaption>
      <details>
        <summary>The values</summary>
        <table class="values">
          <thead>
            <tr>
              <th scope="col">Solver</th>
              <th scope="col">Seconds since it started</th>
              <th scope="col">Best value</th>
            </tr>
          </thead>
          <tbody>
            {solvers.flatMap((name) =>
              trace[name]!.map(([x, y]) => (
                <tr key={`${name} ${x}`}>
                  <th scope="row">{name}</th>
                  <td>{x}</td>
                  <td>{number(y)}</td>
                </tr>
              )),
            )}
          </tbody>
        </table>
      </details>
    </figure>
  );
}
