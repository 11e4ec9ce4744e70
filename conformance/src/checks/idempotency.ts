// idempotency: the contract's "Retries" convention. A start sent twice with one Idempotency-Key answers one
// job (the second time with Idempotent-Replayed: true), its quoted form names the same key, another body under
// the key is 422 idempotency_key_reused, another key starts another job; an upload likewise. The first start and
// upload are the run's job of the example and its data file (fixtures.ts), sent with keys of this run's own; the
// jobs are cancelled and the data file deleted when the run ends. For every listed use case.
import { isDeepStrictEqual } from 'node:util';
import { shown } from '../answer-text.ts';
import type { CheckContext } from '../context.ts';
import type { Reply, RequestSpec } from '../http.ts';
import { uploadFormFor } from '../jobs.ts';
import type { UseCaseInfo } from '../use-cases.ts';
import { type Check, statelessSkip } from './check.ts';

const replayedHeader = 'idempotent-replayed';

/** Sends `spec` with the key; cancels a job it starts when the run ends. */
async function keyed(
  ctx: CheckContext,
  key: string,
  spec: Pick<RequestSpec, 'path' | 'json' | 'query' | 'body'>,
): Promise<Reply> {
  const reply = await ctx.send({ method: 'POST', ...spec, headers: { 'idempotency-key': key } });
  const job = reply.status === 200 && spec.path !== '/data_file' ? reply.json?.job : undefined;
  if (typeof job === 'string') ctx.fixtures.atEnd(() => ctx.send({ method: 'POST', path: `/job/${job}/cancel` }));
  return reply;
}

/** The first answer and its replay: same status, body and Location; only the replay is marked. */
function expectReplay(ctx: CheckContext, first: Reply, again: Reply, what: string): void {
  ctx.expect(
    first.headers[replayedHeader] === undefined,
    `${what}: the first request is marked Idempotent-Replayed`,
    first.exchange,
  );
  if (!ctx.expectStatus(again, first.status, `${what}, sent again with the same key`)) return;
  ctx.expect(
    again.headers[replayedHeader] === 'true',
    `${what}, sent again with the same key: Idempotent-Replayed is ${shown(again.headers[replayedHeader])}, expected "true"`,
    again.exchange,
  );
  // Compared as JSON: a deployment may store the answer in a form that does not keep the order of members.
  ctx.expect(
    isDeepStrictEqual(again.json, first.json),
    `${what}, sent again with the same key: the body differs from the first answer's`,
    again.exchange,
  );
  ctx.expect(
    again.headers.location === first.headers.location,
    `${what}, sent again with the same key: Location is ${shown(again.headers.location)}, the first answer's ${shown(first.headers.location)}`,
    again.exchange,
  );
}

/** The run's job of the example was started with a key of this run's own: its retries. */
async function startJobs(ctx: CheckContext, useCase: UseCaseInfo): Promise<void> {
  const { key, request, reply: first } = (await ctx.fixtures.finishedJob(ctx, useCase)).started;
  const again = await keyed(ctx, key, request);
  expectReplay(ctx, first, again, 'starting a job');
  ctx.expect(
    again.json?.job === first.json?.job,
    `starting a job twice with one key answered jobs ${first.json?.job} and ${again.json?.job}`,
    again.exchange,
  );

  const quoted = await keyed(ctx, `"${key}"`, request);
  if (ctx.expectStatus(quoted, 200, 'starting the job with the quoted form of its key')) {
    ctx.expect(
      quoted.json?.job === first.json?.job,
      `the quoted key "${key}" started job ${quoted.json?.job}, not ${first.json?.job}`,
      quoted.exchange,
    );
  }

  // Another body: the same input as a data file of its own.
  const file = await ctx.fixtures.dataFile(ctx, useCase);
  const other = await keyed(ctx, key, { path: request.path, json: { data_file_identifier: file.id } });
  ctx.expectStatus(other, 422, 'starting another job with the key of the first', 'idempotency_key_reused');

  const fresh = await keyed(ctx, ctx.unique(`idempotency-other-${useCase.id}`), request);
  if (ctx.expectStatus(fresh, 200, 'starting the same job with another key')) {
    ctx.expect(
      fresh.json?.job !== first.json?.job && fresh.headers[replayedHeader] === undefined,
      `another key answered job ${shown(fresh.json?.job)} with Idempotent-Replayed ${shown(fresh.headers[replayedHeader])}; expected a job other than the first key's ${shown(first.json?.job)}, not marked replayed`,
      fresh.exchange,
    );
  }
}

/** The run's data file was uploaded with a key of this run's own: its retries. */
async function uploads(ctx: CheckContext, useCase: UseCaseInfo): Promise<void> {
  const { key, request, reply: first } = (await ctx.fixtures.dataFile(ctx, useCase)).uploaded;
  const { problemId, text, name } = request;
  // A new form, so a new multipart boundary: the same request all the same.
  expectReplay(
    ctx,
    first,
    await keyed(ctx, key, { path: '/data_file', body: uploadFormFor(problemId, text, name) }),
    'uploading a data file',
  );
  const renamed = await keyed(ctx, key, {
    path: '/data_file',
    body: uploadFormFor(problemId, text, `${name}.renamed`),
  });
  ctx.expectStatus(
    renamed,
    422,
    'uploading the file under another name with the key of the first upload',
    'idempotency_key_reused',
  );
}

export const idempotency: Check = {
  name: 'idempotency',
  description:
    'A start or an upload sent again with the same Idempotency-Key answers the first answer (same status, body and Location) with Idempotent-Replayed: true and starts nothing new; the quoted key is the same key; another request under the key is 422 idempotency_key_reused; another key starts a new job.',
  operations: ['startMaxCutJob', 'startQuboJob', 'uploadDataFile', 'cancelJob', 'deleteDataFile'],
  skip: ({ profile }) => (profile === 'sandbox' ? statelessSkip : undefined),
  async run(ctx) {
    for (const useCase of await ctx.fixtures.useCases(ctx)) {
      await startJobs(ctx, useCase);
      await uploads(ctx, useCase);
    }
  },
};
