// newIdempotencyKey where crypto.randomUUID is missing: browsers offer it only in secure contexts (https,
// localhost), and a page served over plain http calling startJob threw a TypeError before anything was sent.
import { afterEach, expect, it } from 'vitest';
import { newIdempotencyKey } from '../src/index.ts';

const uuidV4 = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

afterEach(() => {
  delete (crypto as { randomUUID?: unknown }).randomUUID;
});

it('is a random version 4 UUID with crypto.randomUUID', () => {
  const keys = new Set(Array.from({ length: 100 }, newIdempotencyKey));
  expect(keys.size).toBe(100);
  for (const key of keys) expect(key).toMatch(uuidV4);
});

it('is a random version 4 UUID without it, as in a page served over plain http', () => {
  // An own property hides the prototype's method, as an insecure context's Crypto lacks it.
  Object.defineProperty(crypto, 'randomUUID', { value: undefined, configurable: true });
  expect(crypto.randomUUID).toBeUndefined();
  const keys = new Set(Array.from({ length: 100 }, newIdempotencyKey));
  expect(keys.size).toBe(100);
  for (const key of keys) expect(key).toMatch(uuidV4);
});
