// getWebhook, setWebhook, deleteWebhook, rotateWebhookSecret and listWebhookDeliveries from the state, with a
// deployment's codes and words (server/src/routes/webhook.ts): a URL is checked by @jes/contract/node's address
// guard (422 webhook_url_refused at /url), with the sandbox's allow list; the deliveries are
// webhook-deliveries.ts's.
import { type components, rfc3339 } from '@jes/contract';
import { newWebhookSecret, webhookUrlRefusal } from '@jes/contract/node';
import type { Answer } from '../conventions.ts';
import { type Handler, json, noContent, refusal, type StateRequest } from './request.ts';
import type { DeliveryRecord, UserWebhook, WebhookSender } from './webhook-deliveries.ts';

type Webhook = components['schemas']['Webhook'];
type WebhookDelivery = components['schemas']['WebhookDelivery'];
type WebhookRequest = components['schemas']['WebhookRequest'];

/** How long the secret before a rotation still signs (the contract's rotateWebhookSecret): 24 hours of wall clock. */
const previousSecretMs = 24 * 3600 * 1000;

const date = (ms: number | null) => (ms === null ? null : rfc3339(new Date(ms)));

function renderWebhook(hook: UserWebhook, now: number): Webhook {
  const previousSigns = hook.previousExpiresAt !== null && hook.previousExpiresAt > now;
  return {
    url: hook.url,
    events: hook.events,
    secret: hook.secret,
    previous_secret_expires_at: previousSigns ? date(hook.previousExpiresAt) : null,
  };
}

function renderDelivery(d: DeliveryRecord): WebhookDelivery {
  return {
    id: d.id,
    type: d.type,
    job_id: d.jobId,
    url: d.url,
    status: d.deliveredAt !== null ? 'delivered' : d.failed ? 'failed' : 'pending',
    attempts: d.attempts,
    created_at: date(d.createdAt)!,
    next_attempt_at: date(d.nextAttemptAt),
    delivered_at: date(d.deliveredAt),
    last_error: d.lastError,
  };
}

export function webhookHandlers(sender: WebhookSender, allowHosts: ReadonlySet<string>): Record<string, Handler> {
  const now = (request: StateRequest) => request.state.clock.now();
  return {
    getWebhook: (request: StateRequest): Answer =>
      json(200, renderWebhook(sender.webhookOf(request.user!), now(request))),

    setWebhook(request: StateRequest): Answer {
      const body = request.body as WebhookRequest;
      const refused = webhookUrlRefusal(body.url, allowHosts);
      if (refused)
        return refusal(request, 'webhook_url_refused', refused.detail, {
          errors: [{ pointer: '/url', detail: refused.reason }],
        });
      const hook = sender.webhookOf(request.user!);
      hook.url = body.url;
      hook.events = body.events ?? ['job.ended'];
      sender.watch(request.user!);
      return json(200, renderWebhook(hook, now(request)));
    },

    deleteWebhook(request: StateRequest): Answer {
      const hook = sender.webhookOf(request.user!);
      hook.url = null;
      sender.unwatch(request.user!);
      return noContent();
    },

    rotateWebhookSecret(request: StateRequest): Answer {
      const hook = sender.webhookOf(request.user!);
      hook.previousSecret = hook.secret;
      hook.secret = newWebhookSecret();
      hook.previousExpiresAt = now(request) + previousSecretMs;
      return json(200, renderWebhook(hook, now(request)));
    },

    listWebhookDeliveries(request: StateRequest): Answer {
      const limit = Number(request.query.get('limit') ?? 20);
      const newest = [...sender.webhookOf(request.user!).deliveries].reverse().slice(0, limit);
      return json(200, { deliveries: newest.map(renderDelivery) });
    },
  };
}
