// What tells one request from another under one Idempotency-Key (the same key with another request is 422
// idempotency_key_reused): the server and the sandbox fingerprint alike.
import { createHash } from 'node:crypto';

/** SHA-256 over the parts, each preceded by its length (so no two lists of parts run together alike). */
export function fingerprint(parts: (string | Uint8Array)[]): string {
  const hash = createHash('sha256');
  for (const part of parts) {
    const bytes = typeof part === 'string' ? Buffer.from(part, 'utf8') : part;
    hash.update(`${bytes.length}:`).update(bytes);
  }
  return hash.digest('hex');
}
