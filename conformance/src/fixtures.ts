// Resources several checks use, made once per run on first use (the first caller's check sends the requests),
// so that a run starts as few jobs and uploads as its checks need: the use cases the deployment lists (GET
// /problem), and for each one a FINISHED job of its example, a READY data file of it (as JSON, with bytes unique
// to this run) and a job from that file, a larger data file that lifecycle runs a long job from and
// use_after_free then deletes, and the generated inline jobs that positive_data_acceptance sends and the
// semantics checks read the answers of. The job of the example and the data file are sent with this run's
// Idempotency-Key (idempotency sends them again) and read at once (ensure_resource_availability judges those
// reads). Whatever the run creates is cleaned up at its end (data files deleted, jobs still running cancelled).
import type { CheckContext } from './context.ts';
import { inlineJobRequests, type InlineJobRequest } from './generate/inline-jobs.ts';
import { CheckAbort, type Reply, type RequestSpec } from './http.ts';
import { jsonDataFile, longInput, sizeOf } from './inputs.ts';
import { jobOf, pollJob, startJob, upload, uploadDataFile, validated } from './jobs.ts';
import { readUseCases, type SolverInfo, solversFor, type UseCaseInfo } from './use-cases.ts';

export type { SolverInfo, UseCaseInfo } from './use-cases.ts';

/** A request sent with an Idempotency-Key, as it was sent, so that it can be sent again. */
export interface Keyed<T> {
  key: string;
  request: T;
  reply: Reply;
}

export interface FinishedJob {
  id: string;
  /** The job as its last read had it (FINISHED). */
  job: any;
  /** The start: the example inline, every solver whose size limit admits it, half a second. */
  started: Keyed<Required<Pick<RequestSpec, 'path' | 'json' | 'query'>>>;
  /** Read right after the start: the job, its output and the first page of GET /job. */
  atOnce: { read: Reply; output: Reply; listed: Reply };
  /** The last read. */
  reply: Reply;
  /** The statuses its reads saw, in order. */
  statuses: string[];
}

export interface SharedDataFile {
  id: string;
  /** Its record once validated (READY). */
  file: any;
  text: string;
  uploaded: Keyed<{ problemId: string; text: string; name: string }>;
  /** Read right after the upload: the record and the first page of GET /data_file. */
  atOnce: { read: Reply; listed: Reply };
}

/** A generated inline request as sent, and its answer (200 with the job's id when it was accepted). */
export interface GeneratedJob extends InlineJobRequest {
  reply: Reply;
}

/**
 * The resources checks share, made once per run. A check of your own may use `useCases`, `useCase`, `finishedJob`,
 * `dataFile` (each takes the check's context first: the first caller's check sends the requests), `shared` and
 * `atEnd`; the others serve built-in checks and may change in any release.
 */
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

  /**
   * What `make` resolves to, made once per run (the first caller's check sends its requests). A check of your own
   * keys what it shares with its own name first (`my_check: …`), so as not to meet the built-in keys.
   */
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

  /** A FINISHED job of the example, run by every solver that takes its size (read by lifecycle, the semantics checks…). */
  finishedJob(ctx: CheckContext, useCase: UseCaseInfo): Promise<FinishedJob> {
    return this.shared(`finished job ${useCase.id}`, async () => {
      const key = ctx.unique(`job-${useCase.id}`);
      const request = {
        path: `/problem/${useCase.id}`,
        json: this.example(useCase),
        query: { solver: solversFor(useCase, sizeOf(useCase.example)), time_limit_seconds: 0.5 },
      };
      const started = ctx.require(
        await ctx.send({ method: 'POST', ...request, headers: { 'idempotency-key': key } }),
        200,
        `starting a job of the ${useCase.id} example`,
      );
      const id = started.json?.job;
      if (typeof id !== 'string')
        throw new CheckAbort(`starting a job of the ${useCase.id} example: the answer has no job id`, started.exchange);
      const atOnce = {
        read: await ctx.send({ method: 'GET', path: `/job/${id}` }),
        output: await ctx.send({ method: 'GET', path: `/job/${id}/output` }),
        listed: await ctx.send({ method: 'GET', path: '/job', query: { limit: 100 } }),
      };
      const { job, reply, statuses } = await pollJob(ctx, id);
      const first = atOnce.read.status === 200 ? jobOf(atOnce.read)?.job.status : undefined;
      if (first !== undefined && first !== statuses[0]) statuses.unshift(first);
      if (job.status !== 'FINISHED')
        throw new CheckAbort(`the ${useCase.id} example job ${id} ended ${job.status}, not FINISHED`, reply.exchange);
      return { id, job, started: { key, request, reply: started }, atOnce, reply, statuses };
    });
  }

  /** A READY data file of the example (`uniqueFile`), deleted when the run ends. */
  dataFile(ctx: CheckContext, useCase: UseCaseInfo): Promise<SharedDataFile> {
    return this.shared(`data file ${useCase.id}`, async () => {
      const key = ctx.unique(`file-${useCase.id}`);
      const request = {
        problemId: useCase.id,
        text: this.uniqueFile(ctx, useCase),
        name: ctx.unique(`${useCase.id}.json`),
      };
      const { id, reply } = await upload(ctx, useCase.id, request.text, request.name, { 'idempotency-key': key });
      const atOnce = {
        read: await ctx.send({ method: 'GET', path: `/data_file/${id}` }),
        listed: await ctx.send({ method: 'GET', path: '/data_file', query: { limit: 100 } }),
      };
      const file = await validated(ctx, id);
      if (file?.status !== 'READY')
        throw new CheckAbort(`data file ${id} is ${file?.status}, not READY`, reply.exchange);
      return { id, file, text: request.text, uploaded: { key, request, reply }, atOnce };
    });
  }

  /** A job from `dataFile`, run by the exact solver (else the heuristic), ended (read by lifecycle, deleted by job_deletion). */
  fileJob(
    ctx: CheckContext,
    useCase: UseCaseInfo,
  ): Promise<{ id: string; job: any; reply: Reply; statuses: string[]; solver: SolverInfo; fileId: string }> {
    return this.shared(`data-file job ${useCase.id}`, async () => {
      const { id: fileId } = await this.dataFile(ctx, useCase);
      const solver = useCase.exact ?? useCase.heuristic;
      const { id } = await startJob(
        ctx,
        useCase.id,
        {
          data_file_identifier: fileId,
          solvers: [{ name: solver.name, params: { seed: 1, max_iterations: 100_000 } }],
          time_limit_seconds: 2,
        },
        undefined,
        `starting a ${useCase.id} job from the data file`,
      );
      return { id, ...(await pollJob(ctx, id)), solver, fileId };
    });
  }

  /**
   * A READY data file of an input the heuristic does not finish early (copies of the example: the example alone
   * may be solved at once), for a job that runs until cancelled.
   */
  longDataFile(ctx: CheckContext, useCase: UseCaseInfo): Promise<{ id: string; file: any }> {
    return this.shared(`long data file ${useCase.id}`, () =>
      uploadDataFile(
        ctx,
        useCase.id,
        jsonDataFile(longInput(useCase.example), `${ctx.runId}/${useCase.id}/long`),
        `long-${useCase.id}.json`,
      ),
    );
  }

  /** `longDataFile` deleted (once lifecycle's job from it has ended, when it runs), with the answer to the DELETE. */
  deletedDataFile(ctx: CheckContext, useCase: UseCaseInfo): Promise<{ id: string; deleted: Reply }> {
    return this.shared(`deleted data file ${useCase.id}`, async () => {
      const { id } = await this.longDataFile(ctx, useCase);
      return { id, deleted: await ctx.send({ method: 'DELETE', path: `/data_file/${id}` }) };
    });
  }

  /**
   * positive_data_acceptance's generated inline jobs of the use case (generate/inline-jobs.ts), sent one after
   * the other and not cancelled: each solver's run ends within half a second, and the semantics checks read the
   * answers.
   */
  generatedJobs(ctx: CheckContext, useCase: UseCaseInfo): Promise<GeneratedJob[]> {
    return this.shared(`generated jobs ${useCase.id}`, async () => {
      const jobs: GeneratedJob[] = [];
      for (const request of inlineJobRequests(ctx.contract, useCase, ctx.seed, ctx.runs)) {
        const { input, query } = request;
        jobs.push({
          ...request,
          reply: await ctx.send({ method: 'POST', path: `/problem/${useCase.id}`, json: input, query }),
        });
      }
      return jobs;
    });
  }
}
