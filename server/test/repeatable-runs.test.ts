// Repeatable runs through the API: the same data file, solver, `seed` and `max_iterations` give the same
// execution output (in worker threads, through the queue), another seed gives another partition, and a
// `max_iterations` outside the contract's range is refused with a pointer to it.
import { beforeAll, describe, expect, it } from 'vitest';
import { cutValue } from './support/server.ts';
import { sharedServer } from './support/shared-server.ts';

const jes = sharedServer();
let file: string;
const n = 300;
const matrix: number[][] = Array.from({ length: n }, () => new Array<number>(n).fill(0));

beforeAll(async () => {
  // A sparse graph with +-1 weights: every node has degree 3 or more, so the reductions leave it whole.
  const lines: string[] = [];
  for (let i = 0; i < n; i++) {
    for (const step of [1, 7, 31]) {
      const j = (i + step) % n,
        w = (i * 7 + step) % 3 === 0 ? -1 : 1;
      lines.push(`${i + 1} ${j + 1} ${w}`);
      matrix[i]![j] = matrix[j]![i] = w;
    }
  }
  file = (await jes.alice.upload(`${n} ${lines.length}\n${lines.join('\n')}\n`, 'ring.txt')).body.data_file_identifier;
});

async function run(solver: string, params: Record<string, unknown>): Promise<any> {
  const started = await jes.alice.post('/problem/maxcut', {
    data_file_identifier: file,
    solvers: [{ name: solver, params }],
    time_limit_seconds: 60,
  });
  expect(started.status).toBe(200);
  const job = await jes.alice.waitFor(started.body.job);
  expect(job.status).toBe('FINISHED');
  return job.executions[solver].data;
}

describe('seed and max_iterations', () => {
  // Budgets too small to settle on this graph's optimum, so that another seed ends elsewhere.
  for (const [solver, budget] of [
    ['annealing', 5],
    ['local-search', 40],
  ] as const) {
    it(`${solver}: the same seed and budget give the same answer; another seed another partition`, async () => {
      const [a, b, c] = await Promise.all([
        run(solver, { seed: 7, max_iterations: budget }),
        run(solver, { seed: 7, max_iterations: budget }),
        run(solver, { seed: 8, max_iterations: budget }),
      ]);
      expect(a.iterations).toBe(budget);
      expect(b).toEqual({ ...a, time_to_best_seconds: b.time_to_best_seconds });
      expect(c.partition).not.toEqual(a.partition);
      for (const data of [a, b, c]) expect(data.cut_value).toBe(cutValue(matrix, data.partition));
    });
  }

  it('refuses a max_iterations below 1 or not an integer, pointing at it', async () => {
    for (const bad of [0, 2.5, 'many']) {
      const reply = await jes.alice.post('/problem/maxcut', {
        data_file_identifier: file,
        solvers: [{ name: 'annealing', params: { max_iterations: bad } }],
      });
      expect({ status: reply.status, code: reply.body.code }).toEqual({ status: 400, code: 'invalid_request' });
      expect(reply.body.errors[0].pointer).toBe('/solvers/0/params/max_iterations');
    }
  });
});
