// Access tokens: HS256 JWTs with jose (claims sub, env, iat, exp, jti), valid one hour. A token signed
// with another key or algorithm, expired, or issued for the other environment is refused.
import { randomUUID } from 'node:crypto';
import { errors, jwtVerify, SignJWT } from 'jose';

export const tokenLifetimeSeconds = 3600;

export interface TokenIssuer {
  issue(user: string): Promise<string>;
  /** The user the token was issued to; throws InvalidTokenError with a reason otherwise. */
  verify(token: string): Promise<string>;
}

export class InvalidTokenError extends Error {
  override name = 'InvalidTokenError';
}

/** How many verified tokens are remembered (each until it expires), so a token is checked once, not per request. */
const rememberedTokens = 10_000;

export function tokenIssuer(secret: Uint8Array, env: string): TokenIssuer {
  const verified = new Map<string, { user: string; expires: number }>();
  return {
    issue: (user) =>
      new SignJWT({ env })
        .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
        .setSubject(user)
        .setIssuedAt()
        .setExpirationTime(`${tokenLifetimeSeconds}s`)
        .setJti(randomUUID())
        .sign(secret),
    async verify(token) {
      const known = verified.get(token);
      if (known && known.expires > Date.now()) return known.user;
      if (known) verified.delete(token);
      try {
        const { payload } = await jwtVerify(token, secret, { algorithms: ['HS256'], requiredClaims: ['sub', 'exp', 'env'] });
        if (payload.env !== env) throw new InvalidTokenError(`The token was issued for the ${String(payload.env)} environment, not ${env}`);
        if (verified.size >= rememberedTokens) verified.delete(verified.keys().next().value!);
        verified.set(token, { user: payload.sub!, expires: payload.exp! * 1000 });
        return payload.sub!;
      } catch (error) {
        if (error instanceof InvalidTokenError) throw error;
        if (error instanceof errors.JWTExpired) throw new InvalidTokenError('The token has expired');
        if (error instanceof errors.JWSSignatureVerificationFailed) throw new InvalidTokenError('The token signature is invalid');
        throw new InvalidTokenError('The token is malformed or not acceptable');
      }
    },
  };
}
