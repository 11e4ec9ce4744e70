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
