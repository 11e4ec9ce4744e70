// The webhook's calls (the contract's Webhooks tag): one webhook per user, read, set, removed, its secret rotated, and
// its recent deliveries. Each resolves to `{ data } | { error }` like every helper.
import type { Client } from 'openapi-fetch';
import type { paths } from '@jes/contract';
import { settle } from './result.ts';
import type { Session } from './session.ts';
import type { Result, Webhook, WebhookDelivery, WebhookRequest } from './types.ts';

export interface WebhookCalls {
  /** The webhook (`url` null when none is set) and its secret, made on first read. */
  getWebhook(): Promise<Result<Webhook>>;
  /** Sets the URL told of your jobs (`events` default `['job.ended']`); `422 webhook_url_refused` for one it will not call. */
  setWebhook(request: WebhookRequest): Promise<Result<Webhook>>;
  /** Removes the webhook (its secret stays); `{ deleted: 'webhook' }` whether or not one was set. */
  deleteWebhook(): Promise<Result<{ deleted: 'webhook' }>>;
  /** A new secret; deliveries carry both signatures until `previous_secret_expires_at`. */
  rotateWebhookSecret(): Promise<Result<Webhook>>;
  /** The most recent deliveries, newest first (`limit` 1 to 100). */
  listWebhookDeliveries(query?: { limit?: number }): Promise<Result<WebhookDelivery[]>>;
}

export function webhookCalls(api: Client<paths>, session: Session): WebhookCalls {
  const authed = session.authed.bind(session);
  return {
    getWebhook: () => authed(async () => settle(await api.GET('/webhook'), (data) => data)),
    setWebhook: (request) => authed(async () => settle(await api.PUT('/webhook', { body: request }), (data) => data)),
    deleteWebhook: () =>
      authed(async () => settle(await api.DELETE('/webhook'), () => ({ deleted: 'webhook' as const }))),
    rotateWebhookSecret: () => authed(async () => settle(await api.POST('/webhook/secret'), (data) => data)),
    listWebhookDeliveries: ({ limit } = {}) =>
      authed(async () =>
        settle(
          await api.GET('/webhook/deliveries', { params: { query: limit !== undefined ? { limit } : {} } }),
          (data) => data.deliveries,
        ),
      ),
  };
}
