// The Gset benchmark graphs (../shared/data/gset, or GSET_DIR): every G*.txt streams in as an edge list with
// the nodes, edges and weights best-known.tsv lists. Skipped, with the reason printed, when the folder is absent;
// the three that ship in examples/graphs are read in every run by test/examples/graphs.test.ts.
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { graphFromDataFile } from '../../contract/src/inputs/maxcut/data-file.ts';

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
const gsetDir = path.resolve(repoRoot, process.env.GSET_DIR ?? path.join('..', 'shared', 'data', 'gset'));
const gsetPresent = fs.existsSync(gsetDir);
if (!gsetPresent)
  console.warn(
    `gset: skipping the Gset checks: ${gsetDir} does not exist (set GSET_DIR to the folder of G*.txt and best-known.tsv).`,
  );

describe.skipIf(!gsetPresent)(`the Gset graphs in ${gsetDir}`, () => {
  it('loads all 71 G*.txt files by streaming, as edge lists with the nodes and edges of best-known.tsv', async () => {
    const [header, ...rows] = fs
      .readFileSync(path.join(gsetDir, 'best-known.tsv'), 'utf8')
      .trimEnd()
      .split('\n')
      .map((line) => line.split('\t'));
    expect(header!.slice(0, 6)).toEqual(['name', 'nodes', 'edges', 'weights', 'best_known_cut', 'source']);
    const listed = new Map(
      rows.map(([name, nodes, edges, weights]) => [
        name!,
        { nodes: Number(nodes), edges: Number(edges), weights: weights! },
      ]),
    );
    const files = fs.readdirSync(gsetDir).filter((name) => /^G\d+\.txt$/.test(name));
    expect(files).toHaveLength(71);
    expect(listed.size).toBe(71);
    for (const file of files) {
      const name = file.slice(0, -'.txt'.length);
      const expected = listed.get(name);
      expect(expected, `${name} is not in best-known.tsv`).toBeDefined();
      const { format, graph } = await graphFromDataFile(fs.createReadStream(path.join(gsetDir, file)));
      expect(format, name).toBe('edge_list');
      expect({ name, n: graph.n, edges: graph.edges }).toEqual({ name, n: expected!.nodes, edges: expected!.edges });
      const allowed = expected!.weights === '1' ? [1] : [1, -1];
      expect(
        graph.weights.every((w) => allowed.includes(w)),
        `${name} weights ${expected!.weights}`,
      ).toBe(true);
    }
  }, 20_000);
});
