// webhook_delivery (with --webhook-listen): a job's end is delivered to the user's webhook (webhook-run.ts) as
// the contract's jobEnded webhook says: a POST of JSON, its three Standard Webhooks headers of the documented
// shapes, a signature the official `standardwebhooks` package verifies with the user's secret (a receiver's own
// check, not the suite's twin of the server's signing), and a WebhookPayload about the job, its status the one
// GET /job/{job_id} reads, the job as listings show it (no `data`, no `progress_history`).
import { Webhook } from 'standardwebhooks';
import { shown } from '../answer-text.ts';
import type { CheckContext } from '../context.ts';
import { firstWithinMs, webhookRun } from '../webhook-run.ts';
import type { Delivery } from '../webhook-receiver.ts';
import type { Check } from './check.ts';

export const webhookSkip =
  'no --webhook-listen host:port (an address of this machine the deployment can reach): the suite cannot receive deliveries';

/** Why the webhook checks cannot run here, or undefined. */
export function webhookSkipReason({ profile, options }: Parameters<NonNullable<Check['skip']>>[0]): string | undefined {
  if (profile === 'sandbox')
    return 'the sandbox is stateless: it stores no webhook and runs no job whose end it could deliver';
  return options.webhookListen ? undefined : webhookSkip;
}

/** What the signature check of `standardwebhooks` says is wrong with a delivery, or undefined when it verifies. */
export function signatureProblem(secret: string, delivery: Delivery): string | undefined {
  try {
    new Webhook(secret).verify(delivery.body, delivery.headers);
    return undefined;
  } catch (error) {
    return (error as Error).message;
  }
}

/** The headers and body of one attempt, as the contract's jobEnded webhook documents them. */
export function checkDelivery(ctx: CheckContext, delivery: Delivery, secret: string, what: string): any {
  const { exchange, headers } = delivery;
  ctx.expect(delivery.method === 'POST', `${what} came as ${delivery.method}, expected POST`, exchange);
  ctx.expect(
    /^application\/json\b/i.test(headers['content-type'] ?? ''),
    `${what}: Content-Type is ${shown(headers['content-type'])}, expected application/json`,
    exchange,
  );
  for (const name of ['WebhookId', 'WebhookTimestamp', 'WebhookSignature']) {
    const parameter = ctx.contract.doc.components.parameters[name];
    const value = headers[parameter.name];
    if (!ctx.expect(value !== undefined, `${what} has no ${parameter.name} header`, exchange)) continue;
    for (const error of ctx.contract.validate(parameter.schema, value))
      ctx.fail(`${what}: ${parameter.name} ${shown(value)} ${error.replace(/^\/ /, '')}`, exchange);
  }
  const problem = signatureProblem(secret, delivery);
  ctx.expect(
    problem === undefined,
    `${what}: its signature does not verify with the webhook's secret (standardwebhooks: ${problem}); webhook-signature is ${shown(headers['webhook-signature'])}`,
    exchange,
  );
  let body: any;
  try {
    body = JSON.parse(delivery.body);
  } catch {
    ctx.fail(`${what}: its body is not JSON: ${shown(delivery.body.slice(0, 200))}`, exchange);
    return undefined;
  }
  for (const error of ctx.contract.validate(ctx.contract.schema('WebhookPayload'), body))
    ctx.fail(`${what}: its body is not a WebhookPayload: ${error}`, exchange);
  return body;
}

export const webhookDelivery: Check = {
  name: 'webhook_delivery',
  description:
    "With --webhook-listen: the user's webhook set to the suite's listener (and put back after), a job's end is delivered: a signed POST (standardwebhooks verifies it with the user's secret) whose WebhookPayload is job.ended about the job, with the status GET /job/{id} reads and the job as listings show it.",
  operations: ['getWebhook', 'setWebhook', 'deleteWebhook', 'startMaxCutJob', 'startQuboJob', 'getJob'],
  skip: webhookSkipReason,
  async run(ctx) {
    const run = await webhookRun(ctx);
    for (const d of run.unattributed)
      ctx.fail(`a delivery to ${run.url} names no job (no data.job_id): ${shown(d.body.slice(0, 200))}`, d.exchange);
    if (!run.first) {
      ctx.fail(
        `no delivery for job ${run.jobId} came to ${run.url} within ${firstWithinMs / 1000} s of its end (${run.job.status})`,
        run.jobReply.exchange,
      );
      return;
    }
    const what = `the delivery of job ${run.jobId}'s end`;
    const body = checkDelivery(ctx, run.first, run.secret, what);
    if (!body) return;
    const exchange = run.first.exchange;
    ctx.expect(body.type === 'job.ended', `${what} is of type ${shown(body.type)}, expected "job.ended"`, exchange);
    ctx.expect(
      body.data?.status === run.job.status && body.data?.job?.status === run.job.status,
      `${what} says status ${shown(body.data?.status)} (its job ${shown(body.data?.job?.status)}); GET /job/${run.jobId} reads ${shown(run.job.status)}`,
      exchange,
    );
    const detailed = Object.entries<any>(body.data?.job?.executions ?? {}).filter(
      ([, e]) => e && ('data' in e || 'progress_history' in e),
    );
    ctx.expect(
      detailed.length === 0,
      `${what} carries the job with ${detailed.map(([solver]) => solver).join(', ')}'s data or progress_history; a delivery has the job as listings show it`,
      exchange,
    );
  },
};
