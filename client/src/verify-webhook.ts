// A receiver's check of a webhook delivery (the contract's `webhooks` section): one of its signatures (Standard
// Webhooks: `v1,` and the HMAC-SHA256 of `{webhook-id}.{webhook-timestamp}.{body}`, keyed with the secret) matches,
// and its timestamp is within five minutes of this clock. The official `standardwebhooks` package does the checking,
// so that the service's signatures are the standard's, not a look-alike's. An entry of its own
// (`@jes/client/verify-webhook`): receivers need it, pages do not, and bundlers keep a CommonJS package they cannot
// tree-shake.
import { Webhook, WebhookVerificationError } from 'standardwebhooks';
import type { WebhookPayload } from './types.ts';

/** A delivery refused by `verifyWebhook`: its message says why, in a receiver's words. */
export class WebhookRefusedError extends Error {
  constructor(message: string, options?: ErrorOptions) {
    super(message, options);
    this.name = 'WebhookRefusedError';
  }
}

/** The request's headers as a receiver has them: fetch's `Headers`, or Node's `req.headers`. */
export type WebhookHeaders = Headers | Record<string, string | string[] | undefined>;

const reasons: Record<string, string> = {
  'Missing required headers': 'the delivery lacks one of the headers webhook-id, webhook-timestamp, webhook-signature',
  'Invalid Signature Headers': 'webhook-timestamp is not a number of seconds',
  'Message timestamp too old':
    'webhook-timestamp is more than 5 minutes old: a replayed delivery, or a clock that is wrong (this one or the sender’s)',
  'Message timestamp too new': 'webhook-timestamp is more than 5 minutes ahead of this clock',
  'No matching signature found':
    "no signature in webhook-signature matches the secret: the body was changed (verify the raw bytes received, not JSON made again), or the secret is not this webhook's",
};

function headerRecord(headers: WebhookHeaders): Record<string, string> {
  const entries = headers instanceof Headers ? [...headers] : Object.entries(headers);
  return Object.fromEntries(
    entries.flatMap(([name, value]) =>
      value === undefined ? [] : [[name.toLowerCase(), Array.isArray(value) ? value.join(' ') : value]],
    ),
  );
}

/**
 * The delivery's payload, once its signature and timestamp are checked; throws a `WebhookRefusedError` saying why
 * otherwise. `secret` is the webhook's (`whsec_…`, from `getWebhook`); `body` the raw body as received.
 */
export function verifyWebhook(secret: string, headers: WebhookHeaders, body: string | Uint8Array): WebhookPayload {
  const text = typeof body === 'string' ? body : new TextDecoder().decode(body);
  let payload: unknown;
  try {
    payload = new Webhook(secret).verify(text, headerRecord(headers));
  } catch (error) {
    if (error instanceof WebhookVerificationError)
      throw new WebhookRefusedError(`webhook delivery refused: ${reasons[error.message] ?? error.message}`, {
        cause: error,
      });
    const why = error instanceof SyntaxError ? 'its body is not JSON' : (error as Error).message;
    throw new WebhookRefusedError(`webhook delivery refused: ${why}`, { cause: error });
  }
  if (typeof payload !== 'object' || payload === null)
    throw new WebhookRefusedError('webhook delivery refused: it has no body');
  return payload as WebhookPayload;
}
