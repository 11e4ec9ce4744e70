// A stream ends when the token it was opened with expires (the contract: reconnect with a new token and
// Last-Event-ID). A token that lives two seconds, signed with the test server's key, opens a stream that the
// server then closes by itself.
import { decodeJwt, SignJWT } from 'jose';
import { expect, it } from 'vitest';
import { jwtSecret } from './support/server.ts';
import { sharedServer } from './support/shared-server.ts';
import { openStream } from './support/event-stream.ts';

const jes = sharedServer({ JES_WORKERS: '0' });

it('ends a stream when its token expires', async () => {
  const claims = decodeJwt(jes.alice.token!);
  const issuedAt = Math.floor(Date.now() / 1000);
  const short = await new SignJWT({ env: claims.env, ver: claims.ver })
    .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
    .setSubject('alice')
    .setIssuedAt(issuedAt)
    .setExpirationTime(issuedAt + 2)
    .sign(new TextEncoder().encode(jwtSecret));
  const stream = await openStream(jes.url, '/events', short);
  expect(stream.status).toBe(200);
  // No event comes (nothing changes): the stream ends by itself, without one.
  expect(await stream.rest()).toEqual([]);
});

// Authentication forgives a minute of clock skew past `exp`; a stream opened in that minute would end at once, and a
// client holding only that token would reconnect in a loop. It is refused instead, so the client logs in again.
it('refuses to open a stream with a token past its expiry, even within the skew authentication forgives', async () => {
  const claims = decodeJwt(jes.alice.token!);
  const now = Math.floor(Date.now() / 1000);
  const expired = await new SignJWT({ env: claims.env, ver: claims.ver })
    .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
    .setSubject('alice')
    .setIssuedAt(now - 30)
    .setExpirationTime(now - 5)
    .sign(new TextEncoder().encode(jwtSecret));
  // Still accepted elsewhere (the skew), so the refusal is the stream's own.
  expect((await fetch(`${jes.url}/job`, { headers: { authorization: `Bearer ${expired}` } })).status).toBe(200);
  const stream = await fetch(`${jes.url}/events`, { headers: { authorization: `Bearer ${expired}` } });
  expect(stream.status).toBe(401);
  expect(((await stream.json()) as { code: string }).code).toBe('invalid_token');
  expect(stream.headers.get('www-authenticate')).toMatch(/error="invalid_token"/);
});
