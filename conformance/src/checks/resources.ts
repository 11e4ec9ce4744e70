// ensure_resource_availability and use_after_free (after Schemathesis' checks of the same names): what was
// just created is there at once (a started job reads and lists, an uploaded data file too), and what was
// deleted is gone everywhere (read, delete again, start a job from it, the listing). For every listed use case,
// on the run's shared job, data file and long data file (fixtures.ts), so that neither starts or uploads its own.
import { createHash } from 'node:crypto';
import { answered } from '../answer-text.ts';
import type { CheckContext } from '../context.ts';
import type { Reply } from '../http.ts';
import type { UseCaseInfo } from '../use-cases.ts';
import { type Check, statelessSkip } from './check.ts';

/** Whether a first page (GET /job or GET /data_file with limit 100) answered 200 and lists `id`. */
function lists(ctx: CheckContext, page: Reply, path: string, id: string): boolean {
  return ctx.expectStatus(page, 200, `listing ${path}`) && (page.json?.ids ?? []).includes(id);
}

/** The run's job of the example and its data file, as the fixtures read them right after making them. */
async function availableAtOnce(ctx: CheckContext, useCase: UseCaseInfo): Promise<void> {
  const { id, atOnce } = await ctx.fixtures.finishedJob(ctx, useCase);
  const { read, output, listed } = atOnce;
  if (ctx.expectStatus(read, 200, `reading job ${id} right after it started`))
    ctx.expect(id in (read.json?.job ?? {}), `GET /job/${id} answers another job`, read.exchange);
  ctx.expect(
    output.status === 200 || (output.status === 409 && output.json?.code === 'job_not_finished'),
    `the output of job ${id} right after it started answered ${answered(output)}, expected 200 or 409 job_not_finished`,
    output.exchange,
  );
  ctx.expect(
    lists(ctx, listed, '/job', id),
    `job ${id} is not on the first page of GET /job right after it started`,
    listed.exchange,
  );

  const file = await ctx.fixtures.dataFile(ctx, useCase);
  if (ctx.expectStatus(file.atOnce.read, 200, `reading data file ${file.id} right after its upload`))
    ctx.expect(
      file.id in (file.atOnce.read.json?.data_file ?? {}),
      `GET /data_file/${file.id} answers another file`,
      file.atOnce.read.exchange,
    );
  ctx.expect(
    lists(ctx, file.atOnce.listed, '/data_file', file.id),
    `data file ${file.id} is not on the first page of GET /data_file right after its upload`,
    file.atOnce.listed.exchange,
  );
  if (!ctx.sandbox)
    ctx.expect(
      file.id === createHash('sha1').update(file.text).digest('hex'),
      `the identifier ${file.id} is not the SHA-1 of the bytes`,
      file.uploaded.reply.exchange,
    );
}

export const ensureResourceAvailability: Check = {
  name: 'ensure_resource_availability',
  description:
    'A started job is readable (and its output answers 200 or 409, never 404) at once and is listed; an uploaded data file is readable at once and listed.',
  operations: [
    'startMaxCutJob',
    'startQuboJob',
    'getJob',
    'getJobOutput',
    'listJobs',
    'uploadDataFile',
    'getDataFile',
    'listDataFiles',
  ],
  async run(ctx) {
    for (const useCase of await ctx.fixtures.useCases(ctx)) await availableAtOnce(ctx, useCase);
  },
};

async function goneOnceDeleted(ctx: CheckContext, useCase: UseCaseInfo): Promise<void> {
  const { id, deleted } = await ctx.fixtures.deletedDataFile(ctx, useCase);
  ctx.require(deleted, 204, `deleting data file ${id}`);
  ctx.expectStatus(
    await ctx.send({ method: 'GET', path: `/data_file/${id}` }),
    404,
    'reading a deleted data file',
    'data_file_not_found',
  );
  ctx.expectStatus(
    await ctx.send({ method: 'DELETE', path: `/data_file/${id}` }),
    404,
    'deleting a deleted data file again',
    'data_file_not_found',
  );
  ctx.expectStatus(
    await ctx.send({ method: 'POST', path: `/problem/${useCase.id}`, json: { data_file_identifier: id } }),
    404,
    'starting a job from a deleted data file',
    'data_file_not_found',
  );
  const page = await ctx.send({ method: 'GET', path: '/data_file', query: { limit: 100 } });
  if (ctx.expectStatus(page, 200, 'listing /data_file'))
    ctx.expect(!(page.json?.ids ?? []).includes(id), `the deleted data file ${id} is still listed`, page.exchange);
}

export const useAfterFree: Check = {
  name: 'use_after_free',
  description:
    'A deleted data file is gone: reading it and deleting it again answer 404 data_file_not_found, a job from it 404 data_file_not_found, and it is no longer listed.',
  operations: ['deleteDataFile', 'getDataFile', 'startMaxCutJob', 'startQuboJob', 'listDataFiles'],
  skip: ({ profile }) => (profile === 'sandbox' ? statelessSkip : undefined),
  async run(ctx) {
    for (const useCase of await ctx.fixtures.useCases(ctx)) await goneOnceDeleted(ctx, useCase);
  },
};
