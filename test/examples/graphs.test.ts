// The sample graphs of examples/graphs are what examples/graphs/README.md says: each file read by the server's
// own parsers has the nodes, edges and weights of the README's table, six-node.json is the contract's
// example, a valid startJob body, and its maximum cut is the README's 53. Where the Gset folder is here
// (GSET_DIR), the copies are byte for byte its files and the README's best-known cuts its best-known.tsv.
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { gsetDir } from '../../bench/support/gset.ts';
import { graphFromDataFile } from '../../contract/src/inputs/maxcut/data-file.ts';
import type { Graph } from '../../contract/src/inputs/maxcut/graph.ts';
import { graphFromInline } from '../../contract/src/inputs/maxcut/inline.ts';
import { exact } from '../../server/src/maxcut/solvers/exact.ts';
import { jsonSchema } from '../contract/checks/support.ts';
import { loadContract, operationById, schemaValidator } from '../contract/openapi-document.ts';

const folder = path.join(import.meta.dirname, '..', '..', 'examples', 'graphs');

interface Row {
  file: string;
  nodes: number;
  edges: number;
  weights: string;
  bestKnown: number;
}

/** The rows of the README's table: | `file` | format | nodes | edges | weights | kind | best-known cut |. */
function readmeRows(): Row[] {
  const readme = fs.readFileSync(path.join(folder, 'README.md'), 'utf8');
  const count = (cell: string) => Number(cell.replaceAll(',', ''));
  return readme
    .split('\n')
    .filter((line) => line.startsWith('| `'))
    .map((line) => {
      const [file, , nodes, edges, weights, , best] = line
        .split('|')
        .slice(1, -1)
        .map((cell) => cell.trim());
      return {
        file: file!.replaceAll('`', ''),
        nodes: count(nodes!),
        edges: count(edges!),
        weights: weights!,
        bestKnown: count(/^[\d,]+/.exec(best!)![0]),
      };
    });
}

/** Whether every weight is what the README's weights column says: `1`, `±1`, or a range `a to b`. */
function weightsAre(graph: Graph, column: string): boolean {
  const range = /^(\d+) to (\d+)$/.exec(column);
  if (range) return graph.weights.every((w) => w >= Number(range[1]) && w <= Number(range[2]));
  const allowed = column === '±1' ? [1, -1] : [Number(column)];
  return graph.weights.every((w) => allowed.includes(w));
}

const rows = readmeRows();
const gset = rows.filter((row) => row.file.endsWith('.txt'));

describe('examples/graphs', () => {
  it("the README's table lists every file of the folder, the three Gset graphs and six-node.json", () => {
    expect(rows.map((row) => row.file).sort()).toEqual(
      fs
        .readdirSync(folder)
        .filter((name) => name !== 'README.md')
        .sort(),
    );
    expect(gset.map((row) => row.file)).toEqual(['G11.txt', 'G14.txt', 'G22.txt']);
  });

  for (const row of gset) {
    it(`${row.file} streams in as an edge list with the README's ${row.nodes} nodes, ${row.edges} edges and weights ${row.weights}`, async () => {
      const { format, graph } = await graphFromDataFile(fs.createReadStream(path.join(folder, row.file)));
      expect(format).toBe('edge_list');
      expect({ n: graph.n, edges: graph.edges }).toEqual({ n: row.nodes, edges: row.edges });
      expect(weightsAre(graph, row.weights)).toBe(true);
    });
  }

  it("six-node.json is the contract's MaxCutInput example, a valid startJob body, 114 bytes as the example job records", () => {
    const doc = loadContract();
    const bytes = fs.readFileSync(path.join(folder, 'six-node.json'));
    const input: unknown = JSON.parse(bytes.toString('utf8'));
    expect(input).toEqual(doc.components.examples.MaxCutInput.value);
    const body = jsonSchema(doc, operationById(doc, 'startJob').operation.requestBody);
    expect(schemaValidator(doc)(body!, input)).toEqual([]);
    expect(bytes.length).toBe(114);
  });

  it("six-node.json, read inline and as a data file, has the README's nodes, edges and weights; exact proves its cut", async () => {
    const row = rows.find((r) => r.file === 'six-node.json')!;
    const file = path.join(folder, 'six-node.json');
    const inline = graphFromInline(JSON.parse(fs.readFileSync(file, 'utf8')));
    const { format, graph } = await graphFromDataFile(fs.createReadStream(file));
    expect(format).toBe('json');
    expect(graph).toEqual(inline);
    expect({ n: graph.n, edges: graph.edges }).toEqual({ n: row.nodes, edges: row.edges });
    expect(weightsAre(graph, row.weights)).toBe(true);
    const solved = exact.solve(graph, { timeLimitSeconds: 10, seed: 1, signal: { aborted: false } });
    expect({ cut: solved.cutValue, optimal: solved.optimal }).toEqual({ cut: row.bestKnown, optimal: true });
    expect(row.bestKnown).toBe(53);
  });
});

const dir = gsetDir();
const gsetPresent = fs.existsSync(dir);
if (!gsetPresent)
  console.warn(
    `examples/graphs: skipping the comparison with the Gset folder: ${dir} does not exist (set GSET_DIR to the folder of G*.txt and best-known.tsv).`,
  );
describe.skipIf(!gsetPresent)(`examples/graphs against the Gset folder ${dir}`, () => {
  it("holds byte-for-byte copies of its graphs, and the README's best-known cuts are its best-known.tsv", () => {
    const listed = new Map(
      fs
        .readFileSync(path.join(dir, 'best-known.tsv'), 'utf8')
        .trimEnd()
        .split('\n')
        .slice(1)
        .map((line) => {
          const [name, nodes, edges, , best] = line.split('\t');
          return [`${name}.txt`, { nodes: Number(nodes), edges: Number(edges), bestKnown: Number(best) }];
        }),
    );
    for (const row of gset) {
      expect(
        fs.readFileSync(path.join(folder, row.file)).equals(fs.readFileSync(path.join(dir, row.file))),
        row.file,
      ).toBe(true);
      expect({ file: row.file, nodes: row.nodes, edges: row.edges, bestKnown: row.bestKnown }).toEqual({
        file: row.file,
        ...listed.get(row.file),
      });
    }
  });
});
