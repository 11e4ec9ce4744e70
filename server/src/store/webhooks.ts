// A user's webhook in the database: its URL and events, and its signing secret (made on first read, kept when the
// webhook is removed), with the secret before a rotation and until when that one still signs.
import { newWebhookSecret } from '@jes/contract/node';
import type { Database, Queryable } from './database.ts';

export interface WebhookRow {
  url: string | null;
  events: string[];
  secret: string;
  previous_secret: string | null;
  previous_secret_expires_at: Date | null;
}

/** How long the secret before a rotation still signs (the contract's rotateWebhookSecret: 24 hours). */
export const previousSecretHours = 24;

const columns = 'url, events, secret, previous_secret, previous_secret_expires_at';

/** Makes the row, with a new secret, unless it exists. */
async function ensureWebhook(db: Queryable, owner: string): Promise<void> {
  await db.query('INSERT INTO webhooks (owner, secret) VALUES ($1, $2) ON CONFLICT (owner) DO NOTHING', [
    owner,
    newWebhookSecret(),
  ]);
}

/** The user's webhook (getWebhook), its secret made on first read. */
export async function readWebhook(db: Database, owner: string): Promise<WebhookRow> {
  const [row] = await db.query<WebhookRow>(`SELECT ${columns} FROM webhooks WHERE owner = $1`, [owner]);
  if (row) return row;
  await ensureWebhook(db, owner);
  const [made] = await db.query<WebhookRow>(`SELECT ${columns} FROM webhooks WHERE owner = $1`, [owner]);
  return made!;
}

/** Sets the URL and events (setWebhook); deliveries already queued keep the URL they were queued for. */
export async function setWebhook(db: Database, owner: string, url: string, events: string[]): Promise<WebhookRow> {
  const [row] = await db.query<WebhookRow>(
    `INSERT INTO webhooks (owner, url, events, secret) VALUES ($1, $2, $3, $4)
     ON CONFLICT (owner) DO UPDATE SET url = excluded.url, events = excluded.events
     RETURNING ${columns}`,
    [owner, url, events, newWebhookSecret()],
  );
  return row!;
}

/** Removes the URL (deleteWebhook) and drops the deliveries not yet made; the secret stays. */
export async function deleteWebhook(db: Database, owner: string): Promise<void> {
  await db.transaction(async (tx) => {
    await tx.query('UPDATE webhooks SET url = NULL WHERE owner = $1', [owner]);
    await tx.query('DELETE FROM webhook_deliveries WHERE owner = $1 AND delivered_at IS NULL AND NOT failed', [owner]);
  });
}

/** A new secret (rotateWebhookSecret); the one before signs too for previousSecretHours. */
export async function rotateWebhookSecret(db: Database, owner: string): Promise<WebhookRow> {
  await ensureWebhook(db, owner);
  const [row] = await db.query<WebhookRow>(
    `UPDATE webhooks SET previous_secret = secret, secret = $2,
       previous_secret_expires_at = now() + make_interval(hours => $3)
     WHERE owner = $1 RETURNING ${columns}`,
    [owner, newWebhookSecret(), previousSecretHours],
  );
  return row!;
}
