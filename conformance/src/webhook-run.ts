// What the webhook checks judge, made once per run (fixtures.ts' way): the user's webhook read (its secret) and
// set to the suite's listener (--webhook-listen), a job started and followed to its end, its delivery's first
// attempt answered 500 and its retry (due 5 s later by the contract's schedule) answered 204; then the user's
// webhook put back as it was (removed when there was none). Other jobs' deliveries are answered 204 and set aside.
import { answered } from './answer-text.ts';
import type { CheckContext } from './context.ts';
import { startFollowedJob } from './followed-job.ts';
import { CheckAbort, type Reply } from './http.ts';
import { requireIntroduced } from './introduced.ts';
import { pollJob } from './jobs.ts';
import { type Delivery, startWebhookReceiver } from './webhook-receiver.ts';

/** How long after the job's end its first attempt may take to come, and after that the retry (due after 5 s). */
export const firstWithinMs = 30_000;
export const retryWithinMs = 60_000;

export interface WebhookRun {
  jobId: string;
  /** The job as GET /job/{job_id} read it once ended. */
  job: any;
  jobReply: Reply;
  secret: string;
  url: string;
  /** The first attempt of the job's delivery (answered 500), and the next one (answered 204), when they came. */
  first?: Delivery;
  retry?: Delivery;
  /** Deliveries to the listener whose body names no job (not JSON, or without data.job_id). */
  unattributed: Delivery[];
}

/** The job a delivery is about (its body's data.job_id), or undefined. */
export function deliveredJob(delivery: Pick<Delivery, 'body'>): string | undefined {
  try {
    const id = JSON.parse(delivery.body)?.data?.job_id;
    return typeof id === 'string' ? id : undefined;
  } catch {
    return undefined;
  }
}

/** Stops the check when another client of the user set their webhook elsewhere meanwhile: no fault of the deployment. */
async function stillOurs(ctx: CheckContext, url: string): Promise<void> {
  const now = await ctx.send({ method: 'GET', path: '/webhook' });
  if (now.status === 200 && now.json?.url !== url)
    throw new CheckAbort(
      `the user's webhook was set to ${JSON.stringify(now.json?.url)} by another client during the run (a user has one webhook): run the webhook checks as a user nothing else sets a webhook for`,
      now.exchange,
    );
}

export function webhookRun(ctx: CheckContext): Promise<WebhookRun> {
  return ctx.fixtures.shared('webhook', async () => {
    const before = await ctx.send({ method: 'GET', path: '/webhook' });
    requireIntroduced(ctx, before, 'GET /webhook');
    ctx.require(before, 200, 'reading the webhook');
    const secret = before.json?.secret;
    if (typeof secret !== 'string') throw new CheckAbort('GET /webhook has no secret', before.exchange);
    let jobId: string | undefined;
    let answeredFirst = false;
    const receiver = await startWebhookReceiver(ctx.options.webhookListen!, `/${ctx.unique('webhook')}`, (d) => {
      if (jobId === undefined || deliveredJob(d) !== jobId || answeredFirst) return 204;
      answeredFirst = true;
      return 500;
    });
    ctx.fixtures.atEnd(() => receiver.close());
    const set = await ctx.send({ method: 'PUT', path: '/webhook', json: { url: receiver.url } });
    if (set.status === 422)
      throw new CheckAbort(
        `setting the webhook to ${receiver.url} answered ${answered(set)}: give --webhook-listen an address the deployment will call (the reference server calls a private or loopback one only when JES_WEBHOOK_ALLOW_HOSTS names it)`,
        set.exchange,
      );
    ctx.require(set, 200, `setting the webhook to ${receiver.url}`);
    try {
      const id = await startFollowedJob(ctx, 'a job whose end is delivered');
      jobId = id;
      const ended = await pollJob(ctx, id);
      const mine = (d: Delivery) => deliveredJob(d) === jobId;
      const first = await receiver.next(mine, firstWithinMs);
      if (!first) await stillOurs(ctx, receiver.url);
      const retry = first && (await receiver.next((d) => mine(d) && d !== first, retryWithinMs));
      return {
        jobId: id,
        job: ended.job,
        jobReply: ended.reply,
        secret,
        url: receiver.url,
        ...(first ? { first } : {}),
        ...(retry ? { retry } : {}),
        unattributed: receiver.deliveries.filter((d) => deliveredJob(d) === undefined),
      };
    } finally {
      // Put the user's webhook back as it was: a shared deployment's user keeps their own.
      const url = before.json?.url;
      await (typeof url === 'string'
        ? ctx.send({ method: 'PUT', path: '/webhook', json: { url, events: before.json.events } })
        : ctx.send({ method: 'DELETE', path: '/webhook' }));
    }
  });
}
