// ensure_resource_availability and use_after_free (after Schemathesis' checks of the same names): what was
// just created is there at once (a started job reads and lists, an uploaded data file too), and what was
// deleted is gone everywhere (read, delete again, start a job from it, the listing). For every listed use case.
import { createHash } from 'node:crypto';
import { answered, shown } from '../answer-text.ts';
import type { CheckContext } from '../context.ts';
import { startJob, uploadDataFile, uploadFormFor } from '../jobs.ts';
import type { UseCaseInfo } from '../use-cases.ts';
import { type Check, statelessSkip } from './check.ts';

async function listed(ctx: CheckContext, path: string, id: string): Promise<boolean> {
  const reply = await ctx.send({ method: 'GET', path, query: { limit: 100 } });
  return ctx.expectStatus(reply, 200, `listing ${path}`) && (reply.json?.ids ?? []).includes(id);
}

async function availableAtOnce(ctx: CheckContext, useCase: UseCaseInfo): Promise<void> {
  const { id } = await startJob(ctx, useCase.id, ctx.fixtures.example(useCase), {
    solver: (useCase.exact ?? useCase.heuristic).name,
    time_limit_seconds: 1,
  });
  const read = await ctx.send({ method: 'GET', path: `/job/${id}` });
  if (ctx.expectStatus(read, 200, `reading job ${id} right after it started`))
    ctx.expect(id in (read.json?.job ?? {}), `GET /job/${id} answers another job`, read.exchange);
  const output = await ctx.send({ method: 'GET', path: `/job/${id}/output` });
  ctx.expect(
    output.status === 200 || (output.status === 409 && output.json?.code === 'job_not_finished'),
    `the output of job ${id} right after it started answered ${answered(output)}, expected 200 or 409 job_not_finished`,
    output.exchange,
  );
  ctx.expect(await listed(ctx, '/job', id), `job ${id} is not on the first page of GET /job right after it started`);

  const text = ctx.fixtures.uniqueFile(ctx, useCase, 3);
  const upload = await ctx.send({
    method: 'POST',
    path: '/data_file',
    body: uploadFormFor(useCase.id, text, ctx.unique(`fresh-${useCase.id}.json`)),
  });
  const fileId = upload.json?.data_file_identifier;
  if (
    !ctx.expect(
      upload.status === 201 || upload.status === 200,
      `uploading a data file answered ${answered(upload)}, expected 201 or 200`,
      upload.exchange,
    )
  )
    return;
  if (
    !ctx.expect(
      typeof fileId === 'string',
      `uploading a data file answered ${upload.status} with data_file_identifier ${shown(fileId)}`,
      upload.exchange,
    )
  )
    return;
  ctx.fixtures.atEnd(() => ctx.send({ method: 'DELETE', path: `/data_file/${fileId}` }));
  const file = await ctx.send({ method: 'GET', path: `/data_file/${fileId}` });
  if (ctx.expectStatus(file, 200, `reading data file ${fileId} right after its upload`))
    ctx.expect(fileId in (file.json?.data_file ?? {}), `GET /data_file/${fileId} answers another file`, file.exchange);
  ctx.expect(
    await listed(ctx, '/data_file', fileId),
    `data file ${fileId} is not on the first page of GET /data_file right after its upload`,
  );
  if (!ctx.sandbox)
    ctx.expect(
      fileId === createHash('sha1').update(text).digest('hex'),
      `the identifier ${fileId} is not the SHA-1 of the bytes`,
      upload.exchange,
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
  const text = ctx.fixtures.uniqueFile(ctx, useCase, 2);
  const { id } = await uploadDataFile(ctx, useCase.id, text, `deleted-${useCase.id}.json`);
  ctx.require(await ctx.send({ method: 'DELETE', path: `/data_file/${id}` }), 204, `deleting data file ${id}`);
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
  ctx.expect(!(await listed(ctx, '/data_file', id)), `the deleted data file ${id} is still listed`);
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
