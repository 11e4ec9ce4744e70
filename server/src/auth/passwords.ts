// Passwords are kept only as salted scrypt hashes (memory-hard), in core/password-hash.ts's form. JES_USERS may name a
// user's hash instead of the password (`jes-server hash-password` prints one), so the environment need not hold
// passwords; a hash is checked at the cost it was made with.
import { randomBytes, scrypt, timingSafeEqual } from 'node:crypto';
import { promisify } from 'node:util';
import { defaultCost, parseStoredHash, storedHash } from '../core/password-hash.ts';

const derive = promisify(scrypt) as (
  password: string,
  salt: Buffer,
  length: number,
  options: { N: number; r: number; p: number; maxmem: number },
) => Promise<Buffer>;
const maxmem = 64 * 1024 * 1024;
const keyLength = 32;

export async function hashPassword(password: string): Promise<string> {
  const salt = randomBytes(16);
  return storedHash(defaultCost, salt, await derive(password, salt, keyLength, { ...defaultCost, maxmem }));
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
