// Access tokens: HS256 JWTs with jose (claims sub, env, iat, exp, jti, and ver, the user's token version),
// valid one hour. Refused: another key or algorithm, expired, issued for the other environment, a lifetime
// longer than we issue or an `iat` in the future (beyond a minute of clock skew), and a token whose user has
// since been disabled, removed or given a new password (its version is no longer the user's).
import { randomUUID } from 'node:crypto';
import { errors, jwtVerify, SignJWT } from 'jose';
import { boundedCache } from '../core/bounded-cache.ts';
import { userNamePattern } from '../config/config.ts';

export const tokenLifetimeSeconds = 3600;
const clockSkewSeconds = 60;

export interface TokenIssuer {
  issue(user: string, version: number): Promise<string>;
  /** The user the token was issued to; throws InvalidTokenError with a reason otherwise. */
  verify(token: string): Promise<string>;
  /**
   * The user, without waiting, when the token was verified before and its user's state is remembered and still
   * admits it; undefined otherwise (then `verify` decides, and says why it refuses).
   */
  verified(token: string): string | undefined;
}

export class InvalidTokenError extends Error {
  override name = 'InvalidTokenError';
}

export interface TokenOptions {
  /** The current token version of an enabled user, undefined for a user that may not use any token. */
  tokenVersion(user: string): Promise<number | undefined>;
  /** The same when it is known without a database read: null for a user that may not use any token, undefined when not known. */
  knownVersion?(user: string): number | null | undefined;
  /** The clock, in milliseconds (tests move it). */
  now?: () => number;
}

/**
 * How many verified tokens are remembered (each until it expires), so a signature is checked once, not per
 * request; and in how many bytes (a token we issue is some 300 bytes, its entry some 100 more).
 */
const rememberedTokens = { maxEntries: 10_000, maxBytes: 8 * 1024 * 1024 };

export function tokenIssuer(
  secret: Uint8Array,
  env: string,
  { tokenVersion, knownVersion = () => undefined, now = Date.now }: TokenOptions,
): TokenIssuer {
  const verified = boundedCache<string, { user: string; version: number; expires: number }>({
    ...rememberedTokens,
    sizeOf: (token, entry) => 2 * (token.length + entry.user.length) + 100,
  });

  /** The token's entry while it has not expired (an expired one is forgotten). */
  const remembered = (token: string) => {
    const known = verified.get(token);
    if (!known) return undefined;
    if (known.expires > now()) return known;
    verified.delete(token);
    return undefined;
  };
  async function signature(token: string): Promise<{ user: string; version: number; expires: number }> {
    const known = remembered(token);
    if (known) return known;
    try {
      const { payload } = await jwtVerify(token, secret, {
        algorithms: ['HS256'],
        requiredClaims: ['sub', 'exp', 'env'],
        maxTokenAge: tokenLifetimeSeconds,
        clockTolerance: clockSkewSeconds,
        currentDate: new Date(now()),
      });
      // Signed with our key, yet not a token we issued: a `sub` that is no user name (an array, a NUL) made a 500
      // where the rate limiter hashed it or the database looked it up (issue 27).
      if (typeof payload.sub !== 'string' || !userNamePattern.test(payload.sub) || typeof payload.env !== 'string')
        throw new InvalidTokenError('The token is malformed or not acceptable');
      if (payload.env !== env)
        throw new InvalidTokenError(`The token was issued for the ${String(payload.env)} environment, not ${env}`);
      if (payload.exp! - payload.iat! > tokenLifetimeSeconds)
        throw new InvalidTokenError(
          `The token claims a lifetime longer than the ${tokenLifetimeSeconds} s this service issues`,
        );
      const version = payload.ver ?? 0;
      if (!Number.isSafeInteger(version)) throw new InvalidTokenError('The token is malformed or not acceptable');
      const entry = { user: payload.sub, version: version as number, expires: payload.exp! * 1000 };
      verified.set(token, entry);
      return entry;
    } catch (error) {
      if (error instanceof InvalidTokenError) throw error;
      if (error instanceof errors.JWTExpired)
        throw new InvalidTokenError(
          /"iat"/.test(error.message)
            ? 'The token is older than the lifetime this service issues'
            : 'The token has expired',
        );
      if (error instanceof errors.JWTClaimValidationFailed && error.claim === 'iat' && error.reason === 'check_failed')
        throw new InvalidTokenError('The token was issued in the future');
      if (error instanceof errors.JWSSignatureVerificationFailed)
        throw new InvalidTokenError('The token signature is invalid');
      throw new InvalidTokenError('The token is malformed or not acceptable');
    }
  }

  return {
    issue(user, version) {
      // One reading of the clock: two could straddle a second, and a token claiming 3,601 s is refused.
      const issuedAt = Math.floor(now() / 1000);
      return new SignJWT({ env, ver: version })
        .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
        .setSubject(user)
        .setIssuedAt(issuedAt)
        .setExpirationTime(issuedAt + tokenLifetimeSeconds)
        .setJti(randomUUID())
        .sign(secret);
    },
    verified(token) {
      const known = remembered(token);
      return known && knownVersion(known.user) === known.version ? known.user : undefined;
    },
    async verify(token) {
      const { user, version } = await signature(token);
      const current = await tokenVersion(user);
      if (current === undefined) throw new InvalidTokenError('The user of this token no longer exists or is disabled');
      if (current !== version)
        throw new InvalidTokenError('The token was revoked (the password changed or the user was disabled)');
      return user;
    },
  };
}
