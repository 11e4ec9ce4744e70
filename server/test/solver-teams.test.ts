// Teams: one run on several solver threads (worker/team.ts), end to end on real worker threads and the real
// solvers. A heuristic run on an idle pool takes every thread, a run that waits is lent one at once, a cancelled team
// answers with a verified partition, iteration-budget runs and `exact` keep one thread, and a QUBO team's answer
// and progress go the way of its sense (lower energies). A pool capped at one thread a run (JES_EXECUTION_THREADS)
// keeps to it; through the API, a team's job answers a verified cut and a cancelled one keeps its best. The answers'
// merge is also checked alone, both senses.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cutValue, energy, type Graph } from '@jes/contract/inputs';
import type { Progress } from '../src/core/solver.ts';
import { qubo } from '../src/qubo/use-case.ts';
import { type RunRequest, SolverPool } from '../src/worker/pool.ts';
import { teamAnswers } from '../src/worker/team-answers.ts';
import { randomMatrix } from './support/qubo-fixtures.ts';
import { cutValue as matrixCut, randomMatrix as randomAdjacency } from './support/server.ts';
import { sharedServer } from './support/shared-server.ts';
import { randomCase, sparseGraph } from './support/solver-cases.ts';

const pool = new SolverPool({ size: 2 });
afterAll(() => pool.close());

// Both threads started (a new thread loads its modules before it takes a run up): every run below starts at once.
beforeAll(async () => {
  const warm = { problemId: 'maxcut', solver: 'exact', input: randomCase('warm', 1, 8, 0.5, 'unit').graph };
  await Promise.all([1, 2].map((seed) => pool.run({ ...warm, timeLimitSeconds: 5, seed }).result));
  expect(pool.idle).toBe(2);
});

const medium = sparseGraph(11, 3000, 8, true);
const small = randomCase('small', 3, 14, 0.4, 'negative').graph;

function maxcut(solver: string, graph: Graph, extra: Partial<RunRequest> = {}): RunRequest {
  return { problemId: 'maxcut', solver, input: graph, timeLimitSeconds: 0.5, seed: 7, ...extra };
}

function expectCut(graph: Graph, data: Record<string, unknown>): void {
  const partition = Uint8Array.from(data.partition as number[]);
  expect(partition.length).toBe(graph.n);
  expect(data.cut_value).toBe(cutValue(graph, partition));
}

/** Resolves at the run's first progress report (its solver is running). */
function firstProgress(): { onProgress: (p: Progress) => void; reported: Promise<void> } {
  let onProgress!: (p: Progress) => void;
  const reported = new Promise<void>((resolve) => {
    onProgress = () => resolve();
  });
  return { onProgress, reported };
}

describe('a run on a team of threads', () => {
  it('annealing on an idle pool of 2 runs on both threads; its progress only rises', async () => {
    const progress: number[] = [];
    const handle = pool.run(maxcut('annealing', medium), (p) => progress.push(p.bestValue));
    expect(handle.threads).toBe(2);
    expect(pool.idle).toBe(0);
    const { data, objective } = await handle.result;
    expectCut(medium, data);
    expect(objective).toBe(data.cut_value);
    expect(progress.length).toBeGreaterThanOrEqual(1);
    for (let i = 1; i < progress.length; i++) expect(progress[i]).toBeGreaterThan(progress[i - 1]!);
    expect(progress.at(-1)).toBeLessThanOrEqual(objective);
    expect(pool.idle).toBe(2);
  });

  it('a run submitted while a team runs is lent a thread: it ends while the team still runs', async () => {
    const { onProgress, reported } = firstProgress();
    const team = pool.run(maxcut('local-search', medium, { timeLimitSeconds: 30 }), onProgress);
    let teamEnded = false;
    void team.result.finally(() => (teamEnded = true));
    expect(team.threads).toBe(2);
    await reported;
    const other = pool.run(maxcut('local-search', small, { timeLimitSeconds: 0.2 }));
    expectCut(small, (await other.result).data);
    expect(other.threads).toBe(1);
    expect(teamEnded).toBe(false);
    team.cancel();
    expectCut(medium, (await team.result).data);
  });

  it('cancel stops every member: the team answers within 1 s with its best, a verified cut', async () => {
    const { onProgress, reported } = firstProgress();
    const handle = pool.run(maxcut('annealing', medium, { timeLimitSeconds: 30 }), onProgress);
    expect(handle.threads).toBe(2);
    await reported;
    const cancelledAt = performance.now();
    handle.cancel();
    const { data } = await handle.result;
    expect(performance.now() - cancelledAt).toBeLessThan(1000);
    expectCut(medium, data);
    expect(pool.idle).toBe(2);
  });

  it('a run with max_iterations keeps one thread and is repeatable', async () => {
    const request = maxcut('annealing', medium, { timeLimitSeconds: 30, params: { max_iterations: 30 } });
    const answers = [];
    for (let i = 0; i < 2; i++) {
      const handle = pool.run(request);
      expect(handle.threads).toBe(1);
      expect(pool.idle).toBe(1);
      answers.push((await handle.result).data);
    }
    // The same answer; only the time it was found at is the clock's.
    const { time_to_best_seconds: _first, ...first } = answers[0]!;
    const { time_to_best_seconds: _second, ...second } = answers[1]!;
    expect(first.iterations).toBe(30);
    expect(second).toEqual(first);
  });

  it('exact keeps one thread', async () => {
    const handle = pool.run(maxcut('exact', small, { timeLimitSeconds: 10 }));
    expect(handle.threads).toBe(1);
    expect(pool.idle).toBe(1);
    const { data } = await handle.result;
    expect(data.optimal).toBe(true);
    expectCut(small, data);
  });

  it('a QUBO team answers with its lowest energy, its progress only falling', async () => {
    const n = 300;
    const input = qubo.checkInline({ num_variables: n, q_matrix: randomMatrix(21, n, 'integer') }).prepare();
    const progress: number[] = [];
    const handle = pool.run({ problemId: 'qubo', solver: 'annealing', input, timeLimitSeconds: 0.5, seed: 3 }, (p) =>
      progress.push(p.bestValue),
    );
    expect(handle.threads).toBe(2);
    const { data, objective } = await handle.result;
    expect(objective).toBe(energy(input, Uint8Array.from(data.assignment as number[])));
    expect(progress.length).toBeGreaterThanOrEqual(1);
    for (let i = 1; i < progress.length; i++) expect(progress[i]).toBeLessThan(progress[i - 1]!);
    expect(objective).toBeLessThanOrEqual(progress.at(-1)!);
  });
});

describe('the threads an execution may take (JES_EXECUTION_THREADS)', () => {
  it('a pool that allows one thread a run runs annealing on one, however many are free', async () => {
    const single = new SolverPool({ size: 2, threadsPerRun: 1 });
    try {
      const handle = single.run(maxcut('annealing', small, { timeLimitSeconds: 0.2 }));
      expect(handle.threads).toBe(1);
      expectCut(small, (await handle.result).data);
    } finally {
      await single.close();
    }
  });

  describe('through the API, two threads an execution', () => {
    const jes = sharedServer({ JES_EXECUTION_THREADS: '2' });
    const graph = { num_nodes: 200, adj_matrix: randomAdjacency(200, 5) };

    it('an annealing job on a team answers a cut of its partition', async () => {
      const id = await jes.alice.start(graph, '?solver=annealing&time_limit_seconds=0.5');
      expect((await jes.alice.waitFor(id)).status).toBe('FINISHED');
      const { annealing } = (await jes.alice.get(`/job/${id}/output`)).body.outputs;
      expect(annealing.cut_value).toBe(matrixCut(graph.adj_matrix, annealing.partition));
      expect(annealing.iterations).toBeGreaterThan(0);
    });

    it('a cancelled team keeps the best any member found', async () => {
      const id = await jes.alice.start(graph, '?solver=annealing&time_limit_seconds=60');
      let running: any;
      for (let i = 0; i < 600 && running?.best_value === undefined; i++) {
        await new Promise((r) => setTimeout(r, 100));
        running = (await jes.alice.get(`/job/${id}`)).body.job[id].executions.annealing;
      }
      expect((await jes.alice.post(`/job/${id}/cancel`)).status).toBe(202);
      const ended = (await jes.alice.waitFor(id)).executions.annealing;
      expect(ended.status).toBe('CANCELLED');
      expect(ended.best_value).toBeGreaterThanOrEqual(running.best_value);
    });
  });
});

describe('teamAnswers', () => {
  const member = (objective: number, iterations: number) => ({ objective, data: { objective, iterations } });

  it.each([
    ['max', 9],
    ['min', 4],
  ] as const)('sense %s keeps the best member (objective %d) and sums the iterations', (sense, best) => {
    const answers = teamAnswers(sense, undefined);
    answers.add(2, member(9, 30));
    answers.add(1, member(4, 20));
    answers.add(0, member(6, 10));
    expect(answers.outcome(new Error('none'))).toEqual({ objective: best, data: { objective: best, iterations: 60 } });
  });

  it('passes progress on only when it improves on what was passed on, by sense', () => {
    const seen: number[] = [];
    const answers = teamAnswers('min', (p) => seen.push(p.bestValue));
    for (const bestValue of [5, 7, 3, 3, 4, 1]) answers.progress({ bestValue, foundAtSeconds: 0, elapsedSeconds: 0 });
    expect(seen).toEqual([5, 3, 1]);
  });

  it('answers with the best of the members that answered, else the first error, else `none`', () => {
    const crashed = new Error('crashed');
    const some = teamAnswers('max', undefined);
    some.add(0, crashed);
    some.add(1, member(2, 5));
    expect(some.outcome(new Error('none'))).toEqual(member(2, 5));

    const failed = teamAnswers('max', undefined);
    failed.add(1, new Error('second'));
    failed.add(0, crashed);
    expect(failed.outcome(new Error('none'))).toBe(crashed);

    const none = new Error('none');
    expect(teamAnswers('max', undefined).outcome(none)).toBe(none);
  });
});
