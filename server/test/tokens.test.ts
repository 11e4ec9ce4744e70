// The token rules on an injected clock, so no verdict depends on when the test runs: a token lives exactly its
// hour, a minute of clock skew is forgiven and no more, and a token no longer matching its user's version is
// refused.
import { SignJWT } from 'jose';
import { describe, expect, it } from 'vitest';
import { InvalidTokenError, tokenIssuer } from '../src/auth/tokens.ts';

const secret = new TextEncoder().encode('a-secret-for-the-token-tests-32-bytes!');
const t0 = Date.UTC(2026, 11, 31, 23, 59, 30);

function issuer(versions: Record<string, number | undefined> = { alice: 0 }) {
  const clock = { now: t0 };
  return {
    clock,
    tokens: tokenIssuer(secret, 'production', { tokenVersion: async (user) => versions[user], now: () => clock.now }),
  };
}

const refusal = async (promise: Promise<unknown>) => {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(InvalidTokenError);
  return (error as Error).message;
};

describe('token lifetime on an injected clock', () => {
  it('accepts a token for its hour (and a minute of skew) and refuses it after, across a year boundary', async () => {
    const { clock, tokens } = issuer();
    const token = await tokens.issue('alice', 0);
    clock.now = t0 + 3599_000;
    expect(await tokens.verify(token)).toBe('alice');
    clock.now = t0 + 3659_000;
    expect(await tokens.verify(token)).toBe('alice');
    clock.now = t0 + 3661_000;
    expect(await refusal(tokens.verify(token))).toMatch(/expired/);
  });

  // The fuzz campaign's log-in got a token the server then refused: issuing read the clock twice, and the
  // readings straddled a second, so the token claimed 3,601 s.
  it('issues a token of exactly its hour when the clock ticks over a second while issuing', async () => {
    let ms = t0 + 999;
    const tokens = tokenIssuer(secret, 'production', { tokenVersion: async () => 0, now: () => ms++ });
    const token = await tokens.issue('alice', 0);
    expect(await tokens.verify(token)).toBe('alice');
  });

  it('forgives a minute of clock skew, not more', async () => {
    const { clock, tokens } = issuer();
    const token = await tokens.issue('alice', 0);
    clock.now = t0 - 50_000;
    expect(await tokens.verify(token)).toBe('alice');
    const other = issuer();
    const early = await other.tokens.issue('alice', 0);
    clock.now = t0 - 120_000;
    expect(await refusal(tokens.verify(early))).toMatch(/issued in the future/);
  });

  it('refuses tokens that claim more than the lifetime we issue, or no iat at all', async () => {
    const { tokens } = issuer();
    const now = t0 / 1000;
    const sign = (claims: { iat?: number; exp: number }) => {
      const jwt = new SignJWT({ env: 'production', ver: 0 })
        .setProtectedHeader({ alg: 'HS256' })
        .setSubject('alice')
        .setExpirationTime(claims.exp);
      return (claims.iat === undefined ? jwt : jwt.setIssuedAt(claims.iat)).sign(secret);
    };
    expect(await refusal(tokens.verify(await sign({ iat: now, exp: now + 7200 })))).toMatch(/lifetime longer/);
    expect(await refusal(tokens.verify(await sign({ iat: now - 5000, exp: now + 600 })))).toMatch(
      /older than the lifetime/,
    );
    expect(await refusal(tokens.verify(await sign({ exp: now + 600 })))).toMatch(/malformed|not acceptable/);
    expect(await tokens.verify(await sign({ iat: now, exp: now + 3600 }))).toBe('alice');
  });
});

describe('token versions', () => {
  it('refuses a token whose version is no longer its user’s, and one whose user is gone', async () => {
    const versions: Record<string, number | undefined> = { alice: 0 };
    const { tokens } = issuer(versions);
    const token = await tokens.issue('alice', 0);
    expect(await tokens.verify(token)).toBe('alice');
    versions.alice = 1;
    expect(await refusal(tokens.verify(token))).toMatch(/revoked/);
    versions.alice = undefined;
    expect(await refusal(tokens.verify(token))).toMatch(/no longer exists or is disabled/);
  });
});

describe('claims of the wrong type, signed with the real key', () => {
  // A `sub` that was an array or held a NUL made a 500 (the rate limiter's hash, the database) instead of a 401.
  it.each([
    ['sub an array', { sub: ['alice'] }],
    ['sub a number', { sub: 7 }],
    ['sub holding a NUL', { sub: 'ali\0ce' }],
    ['sub of 129 characters', { sub: 'a'.repeat(129) }],
    ['env an object', { env: { production: true } }],
    ['ver a string', { ver: '0' }],
  ])('refuses a token with %s', async (_what, claims) => {
    const { tokens } = issuer();
    const iat = Math.floor(t0 / 1000);
    const token = await new SignJWT({ sub: 'alice', env: 'production', ver: 0, ...claims } as Record<string, unknown>)
      .setProtectedHeader({ alg: 'HS256' })
      .setIssuedAt(iat)
      .setExpirationTime(iat + 600)
      .sign(secret);
    expect(await refusal(tokens.verify(token))).toBe('The token is malformed or not acceptable');
  });
});

describe('the fast path of a token verified before', () => {
  it('passes a verified token without waiting only while its user state is known and matches, and never past its hour', async () => {
    const clock = { now: t0 };
    const known: Record<string, number | null | undefined> = { alice: 0 };
    const tokens = tokenIssuer(secret, 'production', {
      tokenVersion: async () => 0,
      knownVersion: (user) => known[user],
      now: () => clock.now,
    });
    const token = await tokens.issue('alice', 0);
    expect(tokens.verified(token)).toBeUndefined(); // never verified yet: the signature is checked first
    expect(await tokens.verify(token)).toBe('alice');
    expect(tokens.verified(token)).toBe('alice');
    known.alice = 1; // the password changed
    expect(tokens.verified(token)).toBeUndefined();
    known.alice = null; // disabled
    expect(tokens.verified(token)).toBeUndefined();
    known.alice = undefined; // not remembered: verify reads it
    expect(tokens.verified(token)).toBeUndefined();
    known.alice = 0;
    clock.now = t0 + 3600_000; // its hour is over
    expect(tokens.verified(token)).toBeUndefined();
  });
});
