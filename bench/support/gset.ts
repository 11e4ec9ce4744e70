// The Gset benchmark graphs for the max-cut benchmark: where they are, their best-known cuts, instance
// lists like "G1-G10,G43", and the families they fall into (by how the generator made them).
import fs from 'node:fs';
import path from 'node:path';
import { graphFromDataFile } from '../../contract/src/inputs/maxcut/data-file.ts';
import type { Graph } from '../../contract/src/inputs/maxcut/graph.ts';
import { root } from './settings.ts';

export interface Instance {
  name: string;
  nodes: number;
  edges: number;
  weights: string;
  bestKnown: number;
}

/** GSET_DIR, else ../shared/data/gset beside the repository. */
export function gsetDir(): string {
  return path.resolve(root, process.env.GSET_DIR ?? path.join('..', 'shared', 'data', 'gset'));
}

export function readBestKnown(dir: string): Map<string, Instance> {
  const [, ...rows] = fs.readFileSync(path.join(dir, 'best-known.tsv'), 'utf8').trimEnd().split('\n');
  const instances = new Map<string, Instance>();
  for (const row of rows) {
    const [name, nodes, edges, weights, best] = row.split('\t');
    instances.set(name!, {
      name: name!,
      nodes: Number(nodes),
      edges: Number(edges),
      weights: weights!,
      bestKnown: Number(best),
    });
  }
  return instances;
}

/** "G1-G10,G43" → G1, G2, …, G10, G43 (only names the table lists; an unknown name throws). */
export function expandInstances(spec: string, known: Map<string, Instance>): string[] {
  const names: string[] = [];
  for (const part of spec
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean)) {
    const range = /^G(\d+)-G?(\d+)$/i.exec(part);
    const wanted = range
      ? Array.from({ length: Number(range[2]) - Number(range[1]) + 1 }, (_, i) => `G${Number(range[1]) + i}`)
      : [part.toUpperCase()];
    for (const name of wanted) {
      if (known.has(name)) names.push(name);
      else if (!range) throw new Error(`unknown instance ${name}: best-known.tsv does not list it`);
    }
  }
  return names;
}

/** The Gset families (Helmberg & Rendl's generator): random, planar, toroidal, each with 1 or ±1 weights. */
const families: [number, number, string][] = [
  [1, 10, 'G1–G10 random 800'],
  [11, 13, 'G11–G13 toroidal 800'],
  [14, 21, 'G14–G21 planar 800'],
  [22, 31, 'G22–G31 random 2000'],
  [32, 34, 'G32–G34 toroidal 2000'],
  [35, 42, 'G35–G42 planar 2000'],
  [43, 47, 'G43–G47 random 1000'],
  [48, 50, 'G48–G50 toroidal 3000'],
  [51, 54, 'G51–G54 planar 1000'],
  [55, 81, 'G55–G81 large'],
];

export function familyOf(name: string): string {
  const k = Number(name.slice(1));
  return families.find(([from, to]) => k >= from && k <= to)?.[2] ?? 'other';
}

export async function loadGraph(dir: string, name: string): Promise<Graph> {
  const { graph } = await graphFromDataFile(fs.createReadStream(path.join(dir, `${name}.txt`)));
  return graph;
}
