// Idempotency keys in the database: what an accepted POST answered, per user and key, for 24 hours. A key is
// claimed inside the transaction that creates the job or files the upload, so a crash can leave neither a job
// without its key nor a key without its job. A row older than 24 hours counts as absent and may be taken over.

import type { Queryable } from './database.ts';
import { jsonText } from './json-text.ts';

/** How long a key is remembered (the contract's "Retries" convention). */
export const keyLifetime = '24 hours';

export interface IdempotentRequest {
  key: string;
  /** SHA-256 of what makes two requests the same (http/idempotency.ts). */
  fingerprint: string;
}

/** The answer a key replays. */
export interface StoredAnswer {
  status: number;
  body: unknown;
  location: string | null;
}

export interface StoredKey extends StoredAnswer {
  fingerprint: string;
}

/**
 * Thrown inside a transaction that finds its key already claimed by a request that committed meanwhile (two
 * retries racing): the transaction rolls back, and the caller replays what the other one stored.
 */
export class KeyInUse extends Error {
  override name = 'KeyInUse';
}

/** The owner's key if it was used within the last 24 hours. */
export async function findKey(db: Queryable, owner: string, key: string): Promise<StoredKey | undefined> {
  const [row] = await db.query<StoredKey>(
    `SELECT fingerprint, status, body, location FROM idempotency_keys
      WHERE owner = $1 AND key = $2 AND created_at > now() - interval '${keyLifetime}'`,
    [owner, key],
  );
  return row;
}

/**
 * Claims the key for this request with its answer (or a placeholder that `recordAnswer` replaces before the
 * transaction commits). Throws KeyInUse when a live row holds it: on PostgreSQL a concurrent claim of the same
 * key waits here for the other transaction and then finds its row.
 */
export async function claimKey(
  tx: Queryable,
  owner: string,
  request: IdempotentRequest,
  answer?: StoredAnswer,
): Promise<void> {
  const { status = 0, body = null, location = null } = answer ?? {};
  const claimed = await tx.query(
    `INSERT INTO idempotency_keys (owner, key, fingerprint, status, body, location) VALUES ($1, $2, $3, $4, $5, $6)
     ON CONFLICT (owner, key) DO UPDATE SET fingerprint = excluded.fingerprint, status = excluded.status,
       body = excluded.body, location = excluded.location, created_at = now()
       WHERE idempotency_keys.created_at <= now() - interval '${keyLifetime}'
     RETURNING 1`,
    [owner, request.key, request.fingerprint, status, jsonText(body), location],
  );
  if (claimed.length === 0) throw new KeyInUse(`Idempotency key "${request.key}" is already in use.`);
}

/** Stores the answer of a key claimed with a placeholder, in the same transaction. */
export async function recordAnswer(tx: Queryable, owner: string, key: string, answer: StoredAnswer): Promise<void> {
  await tx.query('UPDATE idempotency_keys SET status = $3, body = $4, location = $5 WHERE owner = $1 AND key = $2', [
    owner,
    key,
    answer.status,
    jsonText(answer.body),
    answer.location,
  ]);
}
