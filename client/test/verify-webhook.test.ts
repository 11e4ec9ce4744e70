// verifyWebhook against deliveries signed here with node:crypto as the contract's `webhooks` section says (not by the
// package that verifies them): `v1,` and the base64 HMAC-SHA256, keyed with the bytes of the secret's base64 after
// `whsec_`, of `{webhook-id}.{webhook-timestamp}.{body}`. A changed body, a wrong secret, a timestamp more than five
// minutes away and missing headers are refused with a reason; two signatures (after a rotation) pass by either.
import { createHmac, randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'yaml';
import { describe, expect, it } from 'vitest';
import type { WebhookPayload } from '../src/index.ts';
import { verifyWebhook, WebhookRefusedError } from '../src/verify-webhook.ts';
import { repoRoot } from './support/processes.ts';

const contract = parse(readFileSync(join(repoRoot, 'openapi.yaml'), 'utf8'));
const example: WebhookPayload = contract.components.examples.WebhookJobEnded.value;
const body = JSON.stringify(example);
const newSecret = () => `whsec_${randomBytes(24).toString('base64')}`;
const secret = newSecret();

function signature(key: string, id: string, timestamp: number, text: string): string {
  const bytes = Buffer.from(key.slice('whsec_'.length), 'base64');
  return `v1,${createHmac('sha256', bytes).update(`${id}.${timestamp}.${text}`).digest('base64')}`;
}

const id = 'msg_2KWPBgLlAfxdpx2AI54pPJ85f4W';

/**
 * The headers of a delivery sent `ageSeconds` ago (by this process's clock, which verifyWebhook reads too), signed by
 * each of `secrets`.
 */
function headers(ageSeconds = 0, secrets = [secret]) {
  const timestamp = Math.floor(Date.now() / 1000) - ageSeconds;
  return {
    'webhook-id': id,
    'webhook-timestamp': String(timestamp),
    'webhook-signature': secrets.map((key) => signature(key, id, timestamp, body)).join(' '),
  };
}

describe('verifyWebhook', () => {
  it("returns the payload of a delivery signed as the contract says, from Node's headers, fetch's Headers, a Buffer or text", () => {
    expect(verifyWebhook(secret, headers(), body)).toEqual(example);
    expect(verifyWebhook(secret, new Headers(headers()), Buffer.from(body))).toEqual(example);
    const shouting = Object.fromEntries(Object.entries(headers()).map(([name, value]) => [name.toUpperCase(), value]));
    expect(verifyWebhook(secret, shouting, new TextEncoder().encode(body)).data.job_id).toBe(example.data.job_id);
  });

  it('accepts a delivery signed by the secret before a rotation and the new one, by either', () => {
    const old = newSecret();
    expect(verifyWebhook(secret, headers(0, [old, secret]), body)).toEqual(example);
    expect(verifyWebhook(old, headers(0, [old, secret]), body)).toEqual(example);
    expect(() => verifyWebhook(newSecret(), headers(0, [old, secret]), body)).toThrow(WebhookRefusedError);
  });

  it.each([
    [
      'a changed body',
      () => verifyWebhook(secret, headers(), body.replace('FINISHED', 'CANCELLED')),
      /the body was changed/,
    ],
    ['another secret', () => verifyWebhook(newSecret(), headers(), body), /matches the secret/],
    [
      'a body parsed and written again',
      () => verifyWebhook(secret, headers(), JSON.stringify(JSON.parse(body), null, 1)),
      /raw bytes/,
    ],
    ['a timestamp six minutes old', () => verifyWebhook(secret, headers(360), body), /more than 5 minutes old/],
    ['a timestamp six minutes ahead', () => verifyWebhook(secret, headers(-360), body), /more than 5 minutes ahead/],
    [
      'no signature header',
      () => verifyWebhook(secret, { ...headers(), 'webhook-signature': undefined }, body),
      /lacks one of the headers/,
    ],
    [
      'a timestamp that is not a number',
      () => verifyWebhook(secret, { ...headers(), 'webhook-timestamp': 'yesterday' }, body),
      /not a number of seconds/,
    ],
  ])('refuses %s, saying why', (_, verify, reason) => {
    expect(verify).toThrow(WebhookRefusedError);
    expect(verify).toThrow(reason);
  });

  it('allows five minutes of difference, either way (the Standard Webhooks tolerance the contract names)', () => {
    expect(verifyWebhook(secret, headers(290), body)).toEqual(example);
    expect(verifyWebhook(secret, headers(-290), body)).toEqual(example);
  });
});
