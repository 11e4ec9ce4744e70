// webhook_retry (with --webhook-listen): a delivery answered 500 is made again (5 s later by the contract's
// schedule; the suite waits up to a minute), with the same webhook-id so a receiver recognises the repeat, signed
// again and telling the same change.
import { isDeepStrictEqual } from 'node:util';
import { shown } from '../answer-text.ts';
import { retryWithinMs, webhookRun } from '../webhook-run.ts';
import type { Check } from './check.ts';
import { checkDelivery, webhookSkipReason } from './webhook-delivery.ts';

export const webhookRetry: Check = {
  name: 'webhook_retry',
  description:
    "With --webhook-listen: a job's end delivery whose first attempt is answered 500 comes again with the same webhook-id, signed, telling the same change.",
  operations: ['getWebhook', 'setWebhook', 'deleteWebhook', 'startMaxCutJob', 'startQuboJob', 'getJob'],
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
  },
};
