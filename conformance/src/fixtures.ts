// Resources several checks use, made once per run on first use: the use cases the deployment lists (GET
// /problem), and for each one a FINISHED job of its example input and a READY data file of it (as JSON, with
// bytes unique to this run). Whatever the run creates is cleaned up at its end (data files deleted, jobs
// still running cancelled).
import type { CheckContext } from './context.ts';
import { CheckAbort, type Reply } from './http.ts';
import { jsonDataFile } from './inputs.ts';
import { pollJob, startJob, uploadDataFile } from './jobs.ts';
import { readUseCases, type UseCaseInfo } from './use-cases.ts';

export type { SolverInfo, UseCaseInfo } from './use-cases.ts';

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

  /** Every use case the deployment lists, in its order. */
  useCases(ctx: CheckContext): Promise<UseCaseInfo[]> {
    return this.shared('use cases', () => readUseCases(ctx));
  }

  /** The listed use case `id`, or undefined when the deployment does not list it. */
  async useCase(ctx: CheckContext, id: string): Promise<UseCaseInfo | undefined> {
    return (await this.useCases(ctx)).find((u) => u.id === id);
  }

  /** A copy of the use case's example input (the record's example_input). */
  example(useCase: UseCaseInfo): Record<string, unknown> {
    return structuredClone(useCase.example);
  }

  /** The example as a JSON data file whose bytes are this run's own (`salt` tells several apart). */
  uniqueFile(ctx: CheckContext, useCase: UseCaseInfo, salt = 0): string {
    return jsonDataFile(useCase.example, `${ctx.runId}/${useCase.id}/${salt}`);
  }

  /** A FINISHED job of the example, run by the exact solver (if any) and the heuristic for half a second. */
  finishedJob(
    ctx: CheckContext,
    useCase: UseCaseInfo,
  ): Promise<{ id: string; job: any; started: Reply; reply: Reply; statuses: string[] }> {
    return this.shared(`finished job ${useCase.id}`, async () => {
      const { exact, heuristic } = useCase;
      const solver = exact ? [exact.name, heuristic.name] : [heuristic.name];
      const { id, reply: started } = await startJob(ctx, useCase.id, this.example(useCase), {
        solver,
        time_limit_seconds: 0.5,
      });
      const { job, reply, statuses } = await pollJob(ctx, id);
      if (job.status !== 'FINISHED')
        throw new CheckAbort(`the ${useCase.id} example job ${id} ended ${job.status}, not FINISHED`, reply.exchange);
      return { id, job, started, reply, statuses };
    });
  }

  /** A READY data file of the example (`uniqueFile`), deleted when the run ends. */
  dataFile(ctx: CheckContext, useCase: UseCaseInfo): Promise<{ id: string; file: any; text: string; uploaded: Reply }> {
    return this.shared(`data file ${useCase.id}`, async () => {
      const text = this.uniqueFile(ctx, useCase);
      const { id, file, reply } = await uploadDataFile(ctx, useCase.id, text, `${useCase.id}.json`);
      if (file?.status !== 'READY')
        throw new CheckAbort(`data file ${id} is ${file?.status}, not READY`, reply.exchange);
      return { id, file, text, uploaded: reply };
    });
  }
}
