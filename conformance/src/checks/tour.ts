// A short walk over every operation (successes and the common refusals), made once per run by whichever
// response check runs first, so that the response checks have every operation's answers to validate even
// when they run alone (`--only response_schema_conformance`). GET /healthz is not asked again: every run asks it
// first, for the deployment's versions (versions.ts). When the run selected operations (--operation) it walks
// those alone, making only the job and data file they need.
import type { CheckContext } from '../context.ts';
import { CheckAbort, type RequestSpec } from '../http.ts';
import { pathValues, selectedRequest } from './probes.ts';

export function tour(ctx: CheckContext): Promise<void> {
  return ctx.fixtures.shared('tour', async () => {
    const visit = async (spec: RequestSpec) => (selectedRequest(ctx, spec) ? ctx.send(spec) : undefined);
    const { username, password } = ctx.options;
    // Without the password (a token given instead) login's 200 and 401 go unseen.
    if (username !== undefined && password !== undefined) {
      await visit({ method: 'POST', path: '/login', auth: 'none', json: { username, password } });
      await visit({ method: 'POST', path: '/login', auth: 'none', json: { username, password: `${password}-wrong` } });
    }
    const useCases = await ctx.fixtures.useCases(ctx);
    for (const useCase of useCases) await visit({ method: 'GET', path: `/problem/${useCase.id}` });
    await visit({ method: 'GET', path: `/problem/${pathValues(ctx).problem_id}` });
    const [first] = useCases;
    // The run's job and data file are made for the operations that read or list them.
    const needed = (ids: string[]) => ids.some((id) => ctx.selected(id));
    if (needed(['getJob', 'getJobOutput', 'getJobInput', 'cancelJob', 'listJobs'])) {
      const { id } = await ctx.fixtures.finishedJob(ctx, first!);
      await visit({ method: 'GET', path: `/job/${id}`, headers: { prefer: 'wait=1' } });
      await visit({ method: 'GET', path: `/job/${id}/output` });
      await visit({ method: 'GET', path: `/job/${id}/input` });
      await visit({ method: 'POST', path: `/job/${id}/cancel` });
    }
    await visit({ method: 'DELETE', path: `/job/${pathValues(ctx).job_id}` });
    const page = await visit({ method: 'GET', path: '/job', query: { limit: 1 } });
    const last = page?.json?.ids?.[0];
    if (typeof last === 'string')
      await visit({ method: 'GET', path: '/job', query: { limit: 1, starting_after: last } });
    if (needed(['getDataFile', 'listDataFiles'])) {
      const file = await ctx.fixtures.dataFile(ctx, first!);
      await visit({ method: 'GET', path: '/data_file', query: { limit: 1, problem_id: first!.id } });
      await visit({ method: 'GET', path: `/data_file/${file.id}` });
    }
    // use_after_free's deleted file, so that a whole run uploads none of its own for this.
    if (ctx.selected('deleteDataFile')) await ctx.fixtures.deletedDataFile(ctx, first!);
  });
}

/**
 * The tour as far as it goes: why it stopped (GET /problem answered 203, say) when it could not go on, else
 * undefined. The answers it got before are there to judge all the same.
 */
export async function tourAsFarAsItGoes(ctx: CheckContext): Promise<CheckAbort | undefined> {
  try {
    await tour(ctx);
    return undefined;
  } catch (error) {
    if (!(error instanceof CheckAbort)) throw error;
    return error;
  }
}
