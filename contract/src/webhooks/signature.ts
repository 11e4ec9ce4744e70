// Signing a delivery as the Standard Webhooks specification says, once for the server and the sandbox: the
// secret is `whsec_` and base64 key bytes; a signature is `v1,` and the base64 HMAC-SHA256 of
// `{webhook-id}.{webhook-timestamp}.{body}`. During the 24 h after a rotation a delivery carries two.
import { createHmac, randomBytes } from 'node:crypto';

const prefix = 'whsec_';

/** A new signing secret: `whsec_` and the base64 of 24 random bytes (as the contract's examples show). */
export function newWebhookSecret(): string {
  return prefix + randomBytes(24).toString('base64');
}

/** The key bytes of a `whsec_` secret; a secret without the prefix is taken as base64 alone (as the spec allows). */
function keyOf(secret: string): Buffer {
  return Buffer.from(secret.startsWith(prefix) ? secret.slice(prefix.length) : secret, 'base64');
}

/** One signature, `v1,<base64>`, of a message. */
export function webhookSignature(secret: string, id: string, timestamp: number, body: string): string {
  const mac = createHmac('sha256', keyOf(secret)).update(`${id}.${timestamp}.${body}`, 'utf8').digest('base64');
  return `v1,${mac}`;
}

/**
 * The `webhook-signature` header's value: one signature per secret, space-separated (the current secret first,
 * then the previous one while it still signs).
 */
export function signatureHeader(secrets: readonly string[], id: string, timestamp: number, body: string): string {
  return secrets.map((secret) => webhookSignature(secret, id, timestamp, body)).join(' ');
}

/** The headers of one attempt; `timestamp` is the attempt's own second, as the spec asks. */
export function webhookHeaders(
  secrets: readonly string[],
  id: string,
  timestamp: number,
  body: string,
): Record<string, string> {
  return {
    'content-type': 'application/json',
    'webhook-id': id,
    'webhook-timestamp': String(timestamp),
    'webhook-signature': signatureHeader(secrets, id, timestamp, body),
  };
}
