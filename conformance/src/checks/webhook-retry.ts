// webhook_retry (with --webhook-listen): a delivery answered 500 is made again (5 s later by the contract's
// schedule; the suite waits up to a minute), with the same webhook-id so a receiver recognises the repeat, signed
// again and telling the same change; and GET /webhook/deliveries then lists it as the receiver saw it: that id, the
// job, two attempts or more, delivered.
import { isDeepStrictEqual } from 'node:util';
import { shown } from '../answer-text.ts';
import { retryWithinMs, webhookRun } from '../webhook-run.ts';
import type { CheckContext } from '../context.ts';
import type { Reply } from '../http.ts';
import type { Check } from './check.ts';
import { checkDelivery, webhookSkipReason } from './webhook-delivery.ts';

/** The deliveries list until it shows `id` delivered (the answer to the retry is recorded just after it), 5 s at most. */
async function listed(ctx: CheckContext, id: string): Promise<{ reply: Reply; delivery: any }> {
  for (let waited = 0; ; waited += 250) {
    const reply = ctx.require(
      // The largest page: jobs of other checks (or other clients of a shared deployment) that end meanwhile queue
      // deliveries too, and the default page of 20 may no longer reach this one.
      await ctx.send({ method: 'GET', path: '/webhook/deliveries?limit=100' }),
      200,
      'listing the deliveries',
    );
    const delivery = (reply.json?.deliveries ?? []).find((d: any) => d?.id === id);
    if (delivery?.status === 'delivered' || waited >= 5000) return { reply, delivery };
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}

export const webhookRetry: Check = {
  name: 'webhook_retry',
  description:
    "With --webhook-listen: a job's end delivery whose first attempt is answered 500 comes again with the same webhook-id, signed, telling the same change; GET /webhook/deliveries lists it by that id, the job's, delivered after two attempts or more.",
  operations: [
    'getWebhook',
    'setWebhook',
    'deleteWebhook',
    'startMaxCutJob',
    'startQuboJob',
    'getJob',
    'listWebhookDeliveries',
  ],
  skip: webhookSkipReason,
  async run(ctx) {
    const run = await webhookRun(ctx);
    const { first: attempt } = run;
    if (!attempt) return ctx.skip(`no first delivery of job ${run.jobId} came (webhook_delivery says so)`);
    if (!run.retry) {
      ctx.fail(
        `the delivery of job ${run.jobId}'s end, answered 500, did not come again within ${retryWithinMs / 1000} s (the contract retries after 5 s)`,
        attempt.exchange,
      );
      return;
    }
    const what = `the retry of job ${run.jobId}'s end delivery`;
    const [firstId, retryId] = [attempt.headers['webhook-id'], run.retry.headers['webhook-id']];
    ctx.expect(
      firstId !== undefined && retryId === firstId,
      `${what} has webhook-id ${shown(retryId)}, the first attempt had ${shown(firstId)}: a repeat carries the same id, so a receiver can drop it`,
      run.retry.exchange,
    );
    const body = checkDelivery(ctx, run.retry, run.secret, what);
    let first: any;
    try {
      first = JSON.parse(attempt.body);
    } catch {}
    if (body && first)
      ctx.expect(
        isDeepStrictEqual(
          { type: body.type, data: body.data, timestamp: body.timestamp },
          { type: first.type, data: first.data, timestamp: first.timestamp },
        ),
        `${what} tells another change than the first attempt: ${shown(body.type)} ${shown(body.data?.status)} at ${shown(body.timestamp)}, then ${shown(first.type)} ${shown(first.data?.status)} at ${shown(first.timestamp)}`,
        run.retry.exchange,
      );
    if (firstId === undefined) return;
    const { reply, delivery } = await listed(ctx, firstId);
    ctx.expect(
      delivery?.status === 'delivered' &&
        delivery.attempts >= 2 &&
        delivery.job_id === run.jobId &&
        delivery.type === 'job.ended',
      `GET /webhook/deliveries lists ${delivery ? `${firstId} as ${shown(delivery.type)} of job ${shown(delivery.job_id)}, ${shown(delivery.status)} after ${shown(delivery.attempts)} attempts` : `no delivery ${firstId}`}; the receiver answered its first attempt 500 and its second 204 (expected job.ended of job ${run.jobId}, delivered after 2 attempts or more)`,
      reply.exchange,
    );
  },
};
