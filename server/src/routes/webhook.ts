// The user's webhook: read (its secret made on first read), set (its URL checked by the address guard: 422
// webhook_url_refused at /url), removed, its secret rotated, and its recent deliveries.
import { Router } from 'express';
import { type components, rfc3339 } from '@jes/contract';
import { webhookUrlRefusal } from '@jes/contract/node';
import { ApiError } from '../core/api-error.ts';
import { pageLimit } from '../http/query.ts';
import type { DeliveryRow } from '../store/webhook-deliveries.ts';
import { listDeliveries } from '../store/webhook-deliveries.ts';
import * as webhooks from '../store/webhooks.ts';
import type { AppDeps } from './deps.ts';

type Webhook = components['schemas']['Webhook'];
type WebhookDelivery = components['schemas']['WebhookDelivery'];
type WebhookRequest = components['schemas']['WebhookRequest'];

function renderWebhook(row: webhooks.WebhookRow): Webhook {
  const previousSigns = row.previous_secret_expires_at !== null && row.previous_secret_expires_at > new Date();
  return {
    url: row.url,
    events: row.events as Webhook['events'],
    secret: row.secret,
    previous_secret_expires_at: previousSigns ? rfc3339(row.previous_secret_expires_at) : null,
  };
}

function renderDelivery(row: DeliveryRow): WebhookDelivery {
  return {
    id: row.id,
    type: row.type as WebhookDelivery['type'],
    job_id: row.job_id,
    url: row.url,
    status: row.delivered_at ? 'delivered' : row.failed ? 'failed' : 'pending',
    attempts: row.attempts,
    created_at: rfc3339(row.created_at)!,
    next_attempt_at: rfc3339(row.next_attempt_at),
    delivered_at: rfc3339(row.delivered_at),
    last_error: row.last_error,
  };
}

export function webhookRoutes({ db, config }: AppDeps): Router {
  const router = Router();

  router.get('/webhook', async function getWebhook(req, res) {
    res.json(renderWebhook(await webhooks.readWebhook(db, req.user)));
  });

  router.put('/webhook', async function setWebhook(req, res) {
    const body = req.body as WebhookRequest;
    const refusal = webhookUrlRefusal(body.url, config.webhooks.allowHosts);
    if (refusal)
      throw new ApiError('webhook_url_refused', refusal.detail, {
        errors: [{ pointer: '/url', detail: refusal.reason }],
      });
    const events = body.events ?? ['job.ended'];
    res.json(renderWebhook(await webhooks.setWebhook(db, req.user, body.url, events)));
  });

  router.delete('/webhook', async function deleteWebhook(req, res) {
    await webhooks.deleteWebhook(db, req.user);
    res.status(204).end();
  });

  router.post('/webhook/secret', async function rotateWebhookSecret(req, res) {
    res.json(renderWebhook(await webhooks.rotateWebhookSecret(db, req.user)));
  });

  router.get('/webhook/deliveries', async function listWebhookDeliveries(req, res) {
    const rows = await listDeliveries(db, req.user, pageLimit(req.query.limit));
    res.json({ deliveries: rows.map(renderDelivery) });
  });

  return router;
}
