// Passwords are kept only as salted scrypt hashes (memory-hard): `scrypt$N$r$p$salt$hash`, base64url parts. JES_USERS
// may name a user's hash instead of the password (`jes-server hash-password` prints one), so the environment need not
// hold passwords; a hash's cost is the one it was made with, within the memory of the default's.
import { randomBytes, scrypt, timingSafeEqual } from 'node:crypto';
import { promisify } from 'node:util';

const derive = promisify(scrypt) as (
  password: string,
  salt: Buffer,
  length: number,
  options: { N: number; r: number; p: number; maxmem: number },
) => Promise<Buffer>;

export interface ScryptCost {
  N: number;
  r: number;
  p: number;
}
/** 32 MiB (128·N·r bytes), about 0.1 s of one core. */
export const defaultCost: ScryptCost = { N: 2 ** 15, r: 8, p: 1 };
const maxmem = 64 * 1024 * 1024;
const keyLength = 32;

export async function hashPassword(password: string, cost: ScryptCost = defaultCost): Promise<string> {
  const salt = randomBytes(16);
  const hash = await derive(password, salt, keyLength, { ...cost, maxmem });
  return ['scrypt', cost.N, cost.r, cost.p, salt.toString('base64url'), hash.toString('base64url')].join('$');
}

interface StoredHash extends ScryptCost {
  salt: Buffer;
  hash: Buffer;
}

const storedForm = /^scrypt\$(\d{1,8})\$(\d{1,3})\$(\d{1,3})\$([\w-]{11,88})\$([\w-]{22,88})$/;

/**
 * `text` as a stored hash, or why it is not one: the form `scrypt$N$r$p$salt$hash`, N a power of two, at most the
 * default's memory (128·N·r ≤ 32 MiB, so the hashing gate's slots hold), p ≤ 16, a salt of 8 bytes or more and a hash
 * of 16 to 64 bytes.
 */
export function parseStoredHash(text: string): StoredHash | string {
  const match = storedForm.exec(text);
  if (!match) return 'not of the form scrypt$N$r$p$salt$hash (base64url salt and hash)';
  const [N, r, p] = [match[1], match[2], match[3]].map(Number) as [number, number, number];
  const salt = Buffer.from(match[4]!, 'base64url');
  const hash = Buffer.from(match[5]!, 'base64url');
  if (N < 2 || (N & (N - 1)) !== 0) return `N (${N}) is not a power of two from 2`;
  if (r < 1 || p < 1 || p > 16) return `r (${r}) must be 1 or more and p (${p}) 1 to 16`;
  if (128 * N * r > 128 * defaultCost.N * defaultCost.r) return `N·r (${N}·${r}) takes more memory than 32 MiB`;
  if (salt.length < 8 || hash.length < 16 || hash.length > 64) return 'the salt or the hash is too short or too long';
  return { N, r, p, salt, hash };
}

export async function verifyPassword(password: string, stored: string): Promise<boolean> {
  const parsed = parseStoredHash(stored);
  if (typeof parsed === 'string') return false;
  const { salt, hash, ...cost } = parsed;
  return timingSafeEqual(await derive(password, salt, hash.length, { ...cost, maxmem }), hash);
}

let decoy: Promise<string> | undefined;
/**
 * A hash of a random password at the default cost, made at its first use (not at every process's start): verified
 * against for unknown users, so they take as long as known ones.
 */
export const decoyHash = (): Promise<string> => (decoy ??= hashPassword(randomBytes(16).toString('hex')));
