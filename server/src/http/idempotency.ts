// The Idempotency-Key request header (draft-ietf-httpapi-idempotency-key-header) of POST /problem/{problem_id}
// and POST /data_file: reading and normalising the key, the fingerprint that tells one request from another,
// and answering a retry with what the first attempt answered. Keys are stored by store/idempotency-keys.ts.
import type { Request, Response } from 'express';
import type { Database } from '../store/database.ts';
import { findKey, type IdempotentRequest, type StoredAnswer } from '../store/idempotency-keys.ts';
import { ApiError } from '../core/api-error.ts';
import { idempotencyKeyOf, maxIdempotencyKeyLength } from '@jes/contract';
import { fingerprint } from '@jes/contract/node';

const refused = (detail: string, why: string) =>
  new ApiError('invalid_request', detail, { errors: [{ pointer: '/header/idempotency-key', detail: why }] });

/**
 * The request's key, or undefined without the header. The contract validator has already checked the value's
 * characters; the quoted form names the same key as the bare one, so the key's length is checked here, once
 * unquoted. Node joins two headers into one value (`dupA, dupB`): they are refused, not taken as one key.
 */
export function idempotencyKey(req: Request): string | undefined {
  const raw = req.get('idempotency-key');
  if (raw === undefined) return undefined;
  let headers = 0;
  for (let i = 0; i < req.rawHeaders.length; i += 2)
    if (req.rawHeaders[i]!.toLowerCase() === 'idempotency-key') headers++;
  if (headers > 1) throw refused('Send one Idempotency-Key header, not several.', `is sent ${headers} times`);
  const key = idempotencyKeyOf(raw);
  if (key === '') throw refused('An Idempotency-Key needs at least one character.', 'is empty');
  if (key.length > maxIdempotencyKeyLength)
    throw refused(
      `An Idempotency-Key has at most ${maxIdempotencyKeyLength} characters.`,
      `has ${key.length} characters (at most ${maxIdempotencyKeyLength})`,
    );
  return key;
}

/** The request's key and fingerprint, or undefined without a key. */
export function idempotentRequest(req: Request, parts: (string | Uint8Array)[]): IdempotentRequest | undefined {
  const key = idempotencyKey(req);
  return key === undefined ? undefined : { key, fingerprint: fingerprint(parts) };
}

/** Sends an answer: the first attempt's as it was, or a replay of it marked `Idempotent-Replayed: true`. */
export function sendAnswer(res: Response, answer: StoredAnswer, replayed = false): void {
  if (answer.location) res.location(answer.location);
  if (replayed) res.set('Idempotent-Replayed', 'true');
  res.status(answer.status).json(answer.body);
}

/**
 * Answers a retry of an accepted request from its stored answer and returns true; returns false when the key
 * is new (or expired). The same key with another request is refused (422).
 */
export async function replayed(
  db: Database,
  req: Request,
  res: Response,
  request: IdempotentRequest,
): Promise<boolean> {
  const stored = await findKey(db, req.user, request.key);
  if (!stored) return false;
  if (stored.fingerprint !== request.fingerprint) {
    throw new ApiError(
      'idempotency_key_reused',
      `Idempotency-Key "${request.key}" was used for a different request within the last 24 hours; send this one with a new key.`,
    );
  }
  sendAnswer(res, stored, true);
  return true;
}
