// isolation: another user's jobs and data files do not exist for you. Every way in (read, output, cancel,
// start a job from the file, delete it, the listings) answers exactly as an unknown id does: 404 with the
// same code. Narrowed to some operations (--operation), those alone (the job and the data file made only when one
// of them needs it).
import { answered } from '../answer-text.ts';
import { type Check, statelessSkip } from './check.ts';
import { pathValues, selectedRequest } from './probes.ts';

export const isolation: Check = {
  name: 'isolation',
  description:
    "With a second user: the first user's job and data file answer 404 (job_not_found, data_file_not_found) to every operation, exactly as unknown ids do, and are not in the second user's listings.",
  operations: [
    'getJob',
    'getJobOutput',
    'getJobInput',
    'cancelJob',
    'getDataFile',
    'deleteDataFile',
    'startMaxCutJob',
    'startQuboJob',
    'listJobs',
    'listDataFiles',
  ],
  skip: ({ profile, options }) => {
    if (profile === 'sandbox') return statelessSkip;
    if (options.token2 === undefined && (options.username2 === undefined || options.password2 === undefined))
      return 'needs a second user (--second-user name:password or --second-token; username2/password2 or token2)';
    return undefined;
  },
  async run(ctx) {
    const [useCase] = await ctx.fixtures.useCases(ctx);
    const unknown = pathValues(ctx);
    const probes: [string, (id: string, fileId: string) => { method: string; path: string; json?: unknown }, string][] =
      [
        ['reading the job', (id) => ({ method: 'GET', path: `/job/${id}` }), 'job_not_found'],
        ["reading the job's output", (id) => ({ method: 'GET', path: `/job/${id}/output` }), 'job_not_found'],
        ["reading the job's input", (id) => ({ method: 'GET', path: `/job/${id}/input` }), 'job_not_found'],
        ['cancelling the job', (id) => ({ method: 'POST', path: `/job/${id}/cancel` }), 'job_not_found'],
        [
          'reading the data file',
          (_, fileId) => ({ method: 'GET', path: `/data_file/${fileId}` }),
          'data_file_not_found',
        ],
        [
          'starting a job from the data file',
          (_, fileId) => ({
            method: 'POST',
            path: `/problem/${useCase!.id}`,
            json: { data_file_identifier: fileId },
          }),
          'data_file_not_found',
        ],
        [
          'deleting the data file',
          (_, fileId) => ({ method: 'DELETE', path: `/data_file/${fileId}` }),
          'data_file_not_found',
        ],
      ];
    const selected = probes.filter(([, request]) =>
      selectedRequest(ctx, request(unknown.job_id!, unknown.data_file_identifier!)),
    );
    const needs = (kind: 'job' | 'data_file') =>
      selected.some(([, , code]) => code === `${kind}_not_found`) ||
      ctx.selected(kind === 'job' ? 'listJobs' : 'listDataFiles');
    const job = needs('job') ? (await ctx.fixtures.finishedJob(ctx, useCase!)).id : '';
    const file = needs('data_file') ? (await ctx.fixtures.dataFile(ctx, useCase!)).id : '';
    for (const [what, request, code] of selected) {
      const theirs = await ctx.send({ ...request(job, file), auth: 'user2' });
      const nobodys = await ctx.send({ ...request(unknown.job_id!, unknown.data_file_identifier!), auth: 'user2' });
      if (!ctx.expectStatus(theirs, 404, `${what} of another user`, code)) continue;
      ctx.expect(
        nobodys.status === theirs.status && nobodys.json?.code === theirs.json?.code,
        `${what}: another user's id answers ${answered(theirs)}, an unknown one ${answered(nobodys)}`,
        theirs.exchange,
      );
    }
    for (const [path, id] of [
      ['/job', job],
      ['/data_file', file],
    ] as const) {
      if (!selectedRequest(ctx, { method: 'GET', path })) continue;
      const page = await ctx.send({ method: 'GET', path, query: { limit: 100 }, auth: 'user2' });
      if (ctx.expectStatus(page, 200, `listing ${path} as the second user`))
        ctx.expect(
          !(page.json?.ids ?? []).includes(id),
          `the second user's ${path} lists the first user's ${id}`,
          page.exchange,
        );
    }
    if (!ctx.selected('getJob')) return;
    const mine = await ctx.send({ method: 'GET', path: `/job/${job}` });
    ctx.expectStatus(mine, 200, 'the owner reading the job after the second user tried');
  },
};
