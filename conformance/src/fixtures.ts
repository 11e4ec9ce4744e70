// Resources several checks use, made once per run on first use: the use case's solvers, a FINISHED job of
// the contract's example graph, a READY data file of a graph unique to this run. Whatever the run creates
// is cleaned up at its end (data files deleted, jobs still running cancelled).
import type { CheckContext } from './context.ts';
import { CheckAbort, type Reply } from './http.ts';
import { pollJob, startJob, uploadDataFile } from './jobs.ts';
import { edgeList, type Graph } from './maxcut.ts';

export interface SolverInfo {
  name: string;
  exact: boolean;
  default: boolean;
  max_nodes?: number;
}

export interface UseCaseInfo {
  solvers: SolverInfo[];
  /** A solver that proves optimality, if the deployment has one. */
  exact: SolverInfo | undefined;
  /** The heuristic to run (a default one if any): it runs on any size until its time limit. */
  heuristic: SolverInfo;
}

export class Fixtures {
  private readonly made = new Map<string, Promise<unknown>>();
  private readonly cleanups: (() => Promise<unknown>)[] = [];

  /** Registers something to undo when the run ends (errors there are ignored). */
  atEnd(cleanup: () => Promise<unknown>): void {
    this.cleanups.push(cleanup);
  }

  async cleanUp(): Promise<void> {
    for (const cleanup of this.cleanups.splice(0).reverse()) await cleanup().catch(() => undefined);
  }

  /** What `make` resolves to, made once per run (the first caller's check sends its requests). */
  shared<T>(key: string, make: () => Promise<T>): Promise<T> {
    if (!this.made.has(key)) this.made.set(key, make());
    return this.made.get(key) as Promise<T>;
  }

  /** The contract's example input (the 6-node graph whose maximum cut is 53). */
  exampleGraph(ctx: CheckContext): Graph {
    return structuredClone(ctx.contract.doc.components.examples.MaxCutInput.value) as Graph;
  }

  /**
   * The example graph with a seventh node joined to the first by a weight from the run's id and `salt`, so
   * that its bytes (hence its data-file identifier) are this run's own.
   */
  uniqueGraph(ctx: CheckContext, salt = 0): Graph {
    const graph = this.exampleGraph(ctx);
    const hash = [...`${ctx.runId}/${salt}`].reduce((h, c) => (h * 31 + c.charCodeAt(0)) % 1_000_000, 7);
    const weight = Number((1 + hash / 1_000_000).toFixed(6));
    const n = graph.num_nodes + 1;
    graph.adj_matrix.forEach((row, i) => row.push(i === 0 ? weight : 0));
    graph.adj_matrix.push(Array.from({ length: n }, (_, i) => (i === 0 ? weight : 0)));
    graph.num_nodes = n;
    return graph;
  }

  useCase(ctx: CheckContext): Promise<UseCaseInfo> {
    return this.shared('use case', async () => {
      const reply = ctx.require(
        await ctx.send({ method: 'GET', path: '/problem/maxcut' }),
        200,
        'reading the maxcut use case',
      );
      const solvers = (reply.json?.solvers ?? []) as SolverInfo[];
      const heuristic = solvers.find((s) => !s.exact && s.default) ?? solvers.find((s) => !s.exact);
      if (!heuristic)
        throw new CheckAbort('the maxcut use case lists no heuristic solver (one that is not exact)', reply.exchange);
      return { solvers, exact: solvers.find((s) => s.exact), heuristic };
    });
  }

  /** A FINISHED job of the example graph, run by the exact solver (if any) and the heuristic for half a second. */
  finishedJob(ctx: CheckContext): Promise<{ id: string; job: any; started: Reply; reply: Reply; statuses: string[] }> {
    return this.shared('finished job', async () => {
      const { exact, heuristic } = await this.useCase(ctx);
      const solver = exact ? [exact.name, heuristic.name] : [heuristic.name];
      const { id, reply: started } = await startJob(ctx, this.exampleGraph(ctx), { solver, time_limit_seconds: 0.5 });
      const { job, reply, statuses } = await pollJob(ctx, id);
      if (job.status !== 'FINISHED')
        throw new CheckAbort(`the example job ${id} ended ${job.status}, not FINISHED`, reply.exchange);
      return { id, job, started, reply, statuses };
    });
  }

  /** A READY data file of `uniqueGraph` (as an edge list), deleted when the run ends. */
  dataFile(ctx: CheckContext): Promise<{ id: string; file: any; graph: Graph; text: string; uploaded: Reply }> {
    return this.shared('data file', async () => {
      const graph = this.uniqueGraph(ctx);
      const text = edgeList(graph);
      const { id, file, reply } = await uploadDataFile(ctx, text, 'graph.txt');
      if (file?.status !== 'READY')
        throw new CheckAbort(`data file ${id} is ${file?.status}, not READY`, reply.exchange);
      return { id, file, graph, text, uploaded: reply };
    });
  }
}
