// The form a password is stored in, `scrypt$N$r$p$salt$hash` (base64url salt and hash), and the bounds a stored hash
// must keep: what auth/ makes and checks, and what JES_USERS may name instead of a password (config/ refuses one out
// of bounds at start-up).

export interface ScryptCost {
  N: number;
  r: number;
  p: number;
}

/** 32 MiB (128·N·r bytes), about 0.1 s of one core. */
export const defaultCost: ScryptCost = { N: 2 ** 15, r: 8, p: 1 };

export interface StoredHash extends ScryptCost {
  salt: Buffer;
  hash: Buffer;
}

const storedForm = /^scrypt\$(\d{1,8})\$(\d{1,3})\$(\d{1,3})\$([\w-]{11,88})\$([\w-]{22,88})$/;

/**
 * `text` as a stored hash, or why it is not one: N a power of two, at most the default's memory (128·N·r ≤ 32 MiB, so
 * the hashing gate's slots hold), p ≤ 16, a salt of 8 bytes or more and a hash of 16 to 64 bytes.
 */
export function parseStoredHash(text: string): StoredHash | string {
  const match = storedForm.exec(text);
  if (!match) return 'not of the form scrypt$N$r$p$salt$hash (base64url salt and hash)';
  const [N, r, p] = [match[1], match[2], match[3]].map(Number) as [number, number, number];
  const salt = Buffer.from(match[4]!, 'base64url');
  const hash = Buffer.from(match[5]!, 'base64url');
  if (N < 2 || (N & (N - 1)) !== 0) return `N (${N}) is not a power of two from 2`;
  if (r < 1 || p < 1 || p > 16) return `r (${r}) must be 1 or more and p (${p}) 1 to 16`;
  if (N * r > defaultCost.N * defaultCost.r) return `N·r (${N}·${r}) takes more memory than 32 MiB`;
  if (salt.length < 8 || hash.length < 16 || hash.length > 64) return 'the salt or the hash is too short or too long';
  return { N, r, p, salt, hash };
}

/** The stored form of `hash`, derived with `cost` from `salt`. */
export const storedHash = (cost: ScryptCost, salt: Buffer, hash: Buffer): string =>
  ['scrypt', cost.N, cost.r, cost.p, salt.toString('base64url'), hash.toString('base64url')].join('$');
