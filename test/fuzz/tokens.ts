// The Authorization headers the fuzz sends: a user's real token, none, malformed headers, and tokens that
// look right but must be refused (forged with another key, `alg: none`, expired, for the other environment,
// claims of the wrong type) or that name a user the server does not have. HS256 is signed here with node:crypto.
import { createHmac } from 'node:crypto';

export const authKinds = [
  'user',
  'none',
  'malformed',
  'forged',
  'alg-none',
  'expired',
  'other-env',
  'unknown-user',
  'odd-claims',
] as const;
export type AuthKind = (typeof authKinds)[number];

const base64url = (data: string | Buffer) => Buffer.from(data).toString('base64url');

export function signJwt(header: object, payload: object, secret: string | undefined): string {
  const body = `${base64url(JSON.stringify(header))}.${base64url(JSON.stringify(payload))}`;
  const signature = secret === undefined ? '' : createHmac('sha256', secret).update(body).digest('base64url');
  return `${body}.${signature}`;
}

function claims(sub: unknown, env: unknown, lifetime = 3600): object {
  const now = Math.floor(Date.now() / 1000);
  return { sub, env, iat: now - 10, exp: now + lifetime, jti: `fuzz-${now}` };
}

/** Authorization values that are not `Bearer <one token>` (index chosen by the case). */
export const malformedAuthorizations = [
  'Bearer',
  'Bearer ',
  'bearer',
  'Basic ZnV6ejA6ZnV6ei1wYXNzd29yZC0w',
  'Token abc',
  'Bearer a b',
  'Bearer a.b',
  'Bearer a.b.c',
  'Bearer ....',
  'Bearer eyJhbGciOiJIUzI1NiJ9.bm90IGpzb24.c2ln',
  'Bearer %00',
  'Bearer Ā𝄞',
  `Bearer ${'A'.repeat(8000)}`,
  'Bearer\tabc',
  ' Bearer abc',
  'Bearer abc, Bearer def',
  'Bearer e30.e30.',
  'Bearer eyJhbGciOiJub25lIn0.e30.',
  '',
];

/** The Authorization header for `kind`, or undefined for none. */
export function authorization(kind: AuthKind, userToken: string, secret: string, variant: number): string | undefined {
  const hs256 = { alg: 'HS256', typ: 'JWT' };
  switch (kind) {
    case 'user':
      return `Bearer ${userToken}`;
    case 'none':
      return undefined;
    case 'malformed':
      return malformedAuthorizations[variant % malformedAuthorizations.length];
    case 'forged':
      return `Bearer ${signJwt(hs256, claims('fuzz0', 'production'), 'a-key-the-server-does-not-know-at-all!')}`;
    case 'alg-none':
      return `Bearer ${signJwt({ alg: 'none', typ: 'JWT' }, claims('fuzz0', 'production'), undefined)}`;
    case 'expired':
      return `Bearer ${signJwt(hs256, claims('fuzz0', 'production', -60), secret)}`;
    case 'other-env':
      return `Bearer ${signJwt(hs256, claims('fuzz0', 'sandbox'), secret)}`;
    case 'unknown-user':
      return `Bearer ${signJwt(hs256, claims(['nobody', 'ghost-user', 'Ā𝄞'][variant % 3]!, 'production'), secret)}`;
    case 'odd-claims': {
      // Signed with the real key, claims of the wrong type: a `sub` array or with a NUL once made a 500.
      const odd = [
        claims(['fuzz0'], 'production'),
        claims('fuzz\u00000', 'production'),
        claims(7, 'production'),
        claims('fuzz0', ['production']),
        { ...claims('fuzz0', 'production'), ver: 'zero' },
      ];
      return `Bearer ${signJwt(hs256, odd[variant % odd.length]!, secret)}`;
    }
  }
}
