// A short walk over every operation (successes and the common refusals), made once per run by whichever
// response check runs first, so that the response checks have every operation's answers to validate even
// when they run alone (`--only response_schema_conformance`). GET /healthz is not asked again: every run asks it
// first, for the deployment's versions (versions.ts).
import type { CheckContext } from '../context.ts';
import { pathValues } from './probes.ts';

export function tour(ctx: CheckContext): Promise<void> {
  return ctx.fixtures.shared('tour', async () => {
    const { username, password } = ctx.options;
    // Without the password (a token given instead) login's 200 and 401 go unseen.
    if (username !== undefined && password !== undefined) {
      await ctx.send({ method: 'POST', path: '/login', auth: 'none', json: { username, password } });
      await ctx.send({
        method: 'POST',
        path: '/login',
        auth: 'none',
        json: { username, password: `${password}-wrong` },
      });
    }
    const useCases = await ctx.fixtures.useCases(ctx);
    for (const useCase of useCases) await ctx.send({ method: 'GET', path: `/problem/${useCase.id}` });
    await ctx.send({ method: 'GET', path: `/problem/${pathValues(ctx).problem_id}` });
    const [first] = useCases;
    const { id } = await ctx.fixtures.finishedJob(ctx, first!);
    await ctx.send({ method: 'GET', path: `/job/${id}`, headers: { prefer: 'wait=1' } });
    await ctx.send({ method: 'GET', path: `/job/${id}/output` });
    await ctx.send({ method: 'GET', path: `/job/${id}/input` });
    await ctx.send({ method: 'POST', path: `/job/${id}/cancel` });
    await ctx.send({ method: 'DELETE', path: `/job/${pathValues(ctx).job_id}` });
    const page = await ctx.send({ method: 'GET', path: '/job', query: { limit: 1 } });
    const last = page.json?.ids?.[0];
    if (typeof last === 'string')
      await ctx.send({ method: 'GET', path: '/job', query: { limit: 1, starting_after: last } });
    const file = await ctx.fixtures.dataFile(ctx, first!);
    await ctx.send({ method: 'GET', path: '/data_file', query: { limit: 1, problem_id: first!.id } });
    await ctx.send({ method: 'GET', path: `/data_file/${file.id}` });
    // use_after_free's deleted file, so that a whole run uploads none of its own for this.
    await ctx.fixtures.deletedDataFile(ctx, first!);
  });
}
