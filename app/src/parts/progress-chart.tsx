// Each execution's best value over time, as the job page saw it (seconds since the page opened), drawn by
// uPlot: one line per solver.
import uPlot from 'uplot';
import 'uplot/dist/uPlot.min.css';
import { useEffect, useRef } from 'preact/hooks';

export interface Sample {
  seconds: number;
  values: Record<string, number | null>;
}

const palette = ['#1f6fb2', '#c2410c', '#15803d', '#7c3aed', '#b45309'];

export function ProgressChart({ samples, solvers }: { samples: Sample[]; solvers: string[] }) {
  const box = useRef<HTMLDivElement>(null);
  useEffect(() => {
    if (samples.length === 0) return;
    const data: uPlot.AlignedData = [
      samples.map((s) => s.seconds),
      ...solvers.map((name) => samples.map((s) => s.values[name] ?? null)),
    ];
    const plot = new uPlot(
      {
        width: Math.min(720, box.current!.clientWidth || 720),
        height: 220,
        scales: { x: { time: false } },
        axes: [{ label: 'seconds since this page opened' }, { label: 'best value' }],
        series: [
          { label: 's' },
          ...solvers.map((name, i) => ({
            label: name,
            stroke: palette[i % palette.length]!,
            width: 2,
            points: { show: true },
          })),
        ],
      },
      data,
      box.current!,
    );
    return () => plot.destroy();
  }, [samples, solvers]);
  return <div ref={box} class="chart" aria-label="Best value over time, per solver" role="img" />;
}
