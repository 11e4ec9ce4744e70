// A max cut drawn: the graph with its two sides apart (left and right, each node coloured by its side) and the
// cut edges, those between the sides, in a strong colour over the others. sigma.js draws it with WebGL, which
// keeps a few thousand nodes and tens of thousands of edges smooth; larger graphs get a summary instead.
import { UndirectedGraph } from 'graphology';
import Sigma from 'sigma';
import { useEffect, useRef } from 'preact/hooks';
import type { Graph as Input } from '../graphs.ts';

/** Drawn up to this many nodes and edges; beyond, the page shows the summary only. */
export const drawable = (graph: Input) => graph.nodes <= 5_000 && graph.edges.length / 3 <= 150_000;

const sideColours = ['#1f6fb2', '#c2410c'];
const cutColour = '#15803d';
const keptColour = 'rgba(90, 90, 90, 0.6)';
const golden = Math.PI * (3 - Math.sqrt(5));

/** Each side's nodes on a sunflower spiral of its own: evenly spread, whatever their number. */
function positions(partition: number[]): { x: number; y: number }[] {
  const counts = [0, 0];
  const seen = [0, 0];
  for (const side of partition) counts[side === 1 ? 1 : 0]!++;
  return partition.map((value) => {
    const side = value === 1 ? 1 : 0;
    const k = seen[side]!++;
    const r = Math.sqrt((k + 0.5) / Math.max(1, counts[side]!));
    return { x: (side ? 1.25 : -1.25) + r * Math.cos(k * golden), y: r * Math.sin(k * golden) };
  });
}

export function CutDrawing({
  graph,
  partition,
  onDrawn,
}: {
  graph: Input;
  partition: number[];
  onDrawn?: (ms: number) => void;
}) {
  const box = useRef<HTMLDivElement>(null);
  useEffect(() => {
    const t0 = performance.now();
    const g = new UndirectedGraph();
    const at = positions(partition);
    const crowded = graph.nodes > 500;
    const size = crowded ? 2 : graph.nodes > 50 ? 4 : 10;
    for (let i = 0; i < graph.nodes; i++)
      g.addNode(String(i), {
        ...at[i],
        size,
        color: sideColours[partition[i] === 1 ? 1 : 0],
        label: graph.nodes <= 50 ? String(i + 1) : '',
      });
    for (let e = 0; e < graph.edges.length; e += 3) {
      const u = graph.edges[e]!;
      const v = graph.edges[e + 1]!;
      if (u === v || u >= graph.nodes || v >= graph.nodes) continue;
      const cut = partition[u] !== partition[v];
      g.mergeEdge(String(u), String(v), {
        // Thousands of edges drawn at once: translucent, so that the sides stay visible through them.
        color: cut ? (crowded ? 'rgba(21, 128, 61, 0.12)' : cutColour) : crowded ? 'rgba(90, 90, 90, 0.2)' : keptColour,
        size: graph.nodes > 500 ? 0.5 : cut ? 2 : 1,
      });
    }
    const sigma = new Sigma(g, box.current!, { renderEdgeLabels: false, labelRenderedSizeThreshold: 0, zIndex: true });
    requestAnimationFrame(() => onDrawn?.(performance.now() - t0));
    return () => sigma.kill();
  }, [graph, partition]);
  return (
    <figure class="drawing">
      <div ref={box} class="canvas" role="img" aria-label={`The graph of ${graph.nodes} nodes with its two sides`} />
      <figcaption>
        <span class="swatch" style={{ background: sideColours[0] }} /> side 0 (left){' '}
        <span class="swatch" style={{ background: sideColours[1] }} /> side 1 (right){' '}
        <span class="swatch" style={{ background: cutColour }} /> cut edges
      </figcaption>
    </figure>
  );
}
