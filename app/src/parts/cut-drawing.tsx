// A max cut drawn: the graph with its two sides apart (left and right, each node coloured by its side) and the
// cut edges, those between the sides, in a strong colour over the others (an even sample of them when there are too
// many to tell apart). sigma.js draws it with WebGL; graphs above a few thousand nodes get a summary instead.
import { UndirectedGraph } from 'graphology';
import Sigma from 'sigma';
import { useEffect, useRef } from 'preact/hooks';
import type { Graph as Input } from '../graphs.ts';

/** Drawn up to this many nodes and edges; beyond, the page shows the summary only. */
export const drawable = (graph: Input) => graph.nodes <= 5_000 && graph.edges.length / 3 <= 150_000;

/**
 * Edges drawn at most. Beyond, an even sample (every k-th edge, the caption says so): thousands of cut edges between
 * the sides would fill the space between them, and sigma adds translucent colours up (its blending takes them as
 * premultiplied: the cut edges' translucent green came out cyan) instead of mixing them, so edges are opaque.
 */
const drawnEdges = 1_500;

const sideColours = ['#1f6fb2', '#c2410c'];
const cutColour = '#15803d';
const keptColour = '#b8bec6';
const golden = Math.PI * (3 - Math.sqrt(5));

/** A node's label: its index, from 0, as the API (`partition[i]`) and the guides number nodes. */
const name = (node: number) => String(node);

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
  const labelled = graph.nodes <= 50;
  const edges = graph.edges.length / 3;
  const every = Math.ceil(edges / drawnEdges);
  let cut = 0;
  for (let e = 0; e < graph.edges.length; e += 3)
    if (partition[graph.edges[e]!] !== partition[graph.edges[e + 1]!]) cut++;
  useEffect(() => {
    const t0 = performance.now();
    const g = new UndirectedGraph();
    const at = positions(partition);
    const size = graph.nodes > 500 ? 2 : graph.nodes > 50 ? 4 : 10;
    for (let i = 0; i < graph.nodes; i++)
      g.addNode(String(i), {
        ...at[i],
        size,
        color: sideColours[partition[i] === 1 ? 1 : 0],
        label: labelled ? name(i) : '',
      });
    for (let e = 0; e < graph.edges.length; e += 3 * every) {
      const u = graph.edges[e]!;
      const v = graph.edges[e + 1]!;
      if (u === v || u >= graph.nodes || v >= graph.nodes) continue;
      const crossing = partition[u] !== partition[v];
      // Cut edges over the others (zIndex), and thicker while there are few.
      g.mergeEdge(String(u), String(v), {
        color: crossing ? cutColour : keptColour,
        size: every > 1 ? 0.5 : crossing ? 2 : 1,
        zIndex: crossing ? 1 : 0,
      });
    }
    const sigma = new Sigma(g, box.current!, {
      renderEdgeLabels: false,
      labelRenderedSizeThreshold: 0,
      zIndex: true,
      minEdgeThickness: every > 1 ? 0.6 : 1.7,
    });
    requestAnimationFrame(() => onDrawn?.(performance.now() - t0));
    return () => sigma.kill();
  }, [graph, partition]);
  return (
    <figure class="drawing">
      <div ref={box} class="canvas" role="img" aria-label={`The graph of ${graph.nodes} nodes with its two sides`} />
      <figcaption>
        {['left', 'right'].map((where, side) => (
          <span key={where} class="key">
            <span class="swatch" style={{ background: sideColours[side] }} /> side {side} ({where})
            {labelled &&
              `: nodes ${partition.flatMap((p, i) => ((p === 1 ? 1 : 0) === side ? [name(i)] : [])).join(', ')}`}
          </span>
        ))}{' '}
        <span class="key">
          <span class="swatch" style={{ background: cutColour }} /> cut edges
        </span>{' '}
        <span class="key">
          <span class="swatch" style={{ background: keptColour }} /> other edges
        </span>
        <span class="hint" data-testid="edges-drawn">
          {' '}
          {cut.toLocaleString()} of the {edges.toLocaleString()} edges are cut
          {every > 1 && `; one edge in ${every} is drawn (${Math.ceil(edges / every).toLocaleString()})`}.
        </span>
      </figcaption>
    </figure>
  );
}
