// Token attacks and privacy: forged, unsigned, expired and other-environment tokens are refused, and one
// user's jobs and data files answer 404 to another; the cache of token versions forgets at revocations only.
import { SignJWT } from 'jose';
import { describe, expect, it } from 'vitest';
import { userStates } from '../src/auth/user-states.ts';
import { ensureUsers } from '../src/auth/users.ts';
import { userChannel } from '../src/store/channels.ts';
import { Client, jwtSecret, sixNodes, sixNodesEdgeList, users } from './support/server.ts';
import { sharedServer } from './support/shared-server.ts';

const jes = sharedServer({}, { users: ['alice', 'bob'] });

const key = (secret: string) => new TextEncoder().encode(secret);
const b64 = (value: object) => Buffer.from(JSON.stringify(value)).toString('base64url');
const now = () => Math.floor(Date.now() / 1000);

async function refused(token: string) {
  const reply = await new Client(jes.url).get('/job', { authorization: `Bearer ${token}` });
  expect(reply.status).toBe(401);
  expect(reply.body.code).toBe('invalid_token');
  expect(reply.headers.get('www-authenticate')).toMatch(/error="invalid_token"/);
  return reply;
}

describe('tokens', () => {
  it('a token from login works, and carries sub, env, iat, exp, jti', async () => {
    expect((await jes.alice.get('/job')).status).toBe(200);
    const [, payload] = jes.alice.token!.split('.');
    const claims = JSON.parse(Buffer.from(payload!, 'base64url').toString());
    expect(claims).toMatchObject({ sub: 'alice', env: 'production', jti: expect.any(String) });
    expect(claims.exp - claims.iat).toBe(3600);
  });

  it('refuses a token signed with another key', async () => {
    await refused(
      await new SignJWT({ env: 'production' })
        .setProtectedHeader({ alg: 'HS256' })
        .setSubject('alice')
        .setIssuedAt()
        .setExpirationTime('1h')
        .sign(key('another-secret-another-secret-another!')),
    );
  });

  it('refuses an unsigned token (alg: none)', async () => {
    await refused(
      `${b64({ alg: 'none', typ: 'JWT' })}.${b64({ sub: 'alice', env: 'production', iat: now(), exp: now() + 3600 })}.`,
    );
  });

  it('refuses an expired token', async () => {
    const reply = await refused(
      await new SignJWT({ env: 'production' })
        .setProtectedHeader({ alg: 'HS256' })
        .setSubject('alice')
        .setIssuedAt(now() - 7200)
        .setExpirationTime(now() - 3600)
        .sign(key(jwtSecret)),
    );
    expect(reply.body.detail).toMatch(/expired/);
  });

  it('refuses a token issued for the other environment', async () => {
    const reply = await refused(
      await new SignJWT({ env: 'sandbox' })
        .setProtectedHeader({ alg: 'HS256' })
        .setSubject('alice')
        .setIssuedAt()
        .setExpirationTime('1h')
        .sign(key(jwtSecret)),
    );
    expect(reply.body.detail).toMatch(/sandbox/);
  });

  it('refuses another algorithm with the same key (HS512) and garbage', async () => {
    await refused(
      await new SignJWT({ env: 'production' })
        .setProtectedHeader({ alg: 'HS512' })
        .setSubject('alice')
        .setIssuedAt()
        .setExpirationTime('1h')
        .sign(key(jwtSecret)),
    );
    await refused('garbage');
    await refused(`${jes.alice.token}x`);
  });

  it('refuses a well-signed token that claims a longer life than we issue, or an iat in the future (issue 10)', async () => {
    const sign = (iat: number, exp: number) =>
      new SignJWT({ env: 'production' })
        .setProtectedHeader({ alg: 'HS256' })
        .setSubject('alice')
        .setIssuedAt(iat)
        .setExpirationTime(exp)
        .sign(key(jwtSecret));
    expect((await refused(await sign(now(), now() + 30 * 24 * 3600))).body.detail).toMatch(/lifetime longer/);
    expect((await refused(await sign(now() + 600, now() + 1200))).body.detail).toMatch(/issued in the future/);
    expect(
      (
        await refused(
          await new SignJWT({ env: 'production' })
            .setProtectedHeader({ alg: 'HS256' })
            .setSubject('alice')
            .setExpirationTime(now() + 600)
            .sign(key(jwtSecret)),
        )
      ).status,
    ).toBe(401);
  });

  it('answers a login with Cache-Control: no-store', async () => {
    const reply = await new Client(jes.url).post('/login', { username: 'bob', password: 'bob-password-2' });
    expect(reply.headers.get('cache-control')).toBe('no-store');
    expect(reply.body).toMatchObject({ token_type: 'Bearer', expires_in: 3600 });
  });
});

describe('isolation between users', () => {
  it("hides one user's jobs and data files from another", async () => {
    const job = await jes.alice.start(sixNodes);
    const file = (await jes.alice.upload(sixNodesEdgeList, 'six.txt')).body.data_file_identifier;

    expect((await jes.bob.get(`/job/${job}`)).body.code).toBe('job_not_found');
    expect((await jes.bob.get(`/job/${job}/output`)).body.code).toBe('job_not_found');
    expect((await jes.bob.post(`/job/${job}/cancel`)).body.code).toBe('job_not_found');
    expect((await jes.bob.get('/job')).body.ids).not.toContain(job);
    expect((await jes.bob.get(`/data_file/${file}`)).body.code).toBe('data_file_not_found');
    expect((await jes.bob.request('DELETE', `/data_file/${file}`)).body.code).toBe('data_file_not_found');
    expect((await jes.bob.post('/problem/maxcut', { data_file_identifier: file })).body.code).toBe(
      'data_file_not_found',
    );
    expect((await jes.bob.get('/data_file')).body.ids).not.toContain(file);
    expect((await jes.alice.waitFor(job)).status).toBe('FINISHED');
  });
});

// Each process remembers users' token versions for two seconds, forgetting them at a revocation's announcement. The
// revocations were announced on the job event log's channel too: every job's status event made every process forget
// every user's version, and read it again at the next request.
describe("the token versions' cache", () => {
  it('keeps what it knows through job events, and forgets it at a revocation', async () => {
    const states = await userStates(jes.server.db, 60_000);
    const heard: string[] = [];
    const unlisten = await jes.server.db.listen(userChannel, (owner) => heard.push(owner));
    try {
      const version = await states.tokenVersion('bob');
      expect(version).toBeTypeOf('number');
      await jes.alice.start(sixNodes);
      // Every listener of a channel hears an announcement at once, in turn: heard after the cache did.
      await expect.poll(() => heard).toContain('alice');
      expect(states.knownVersion('bob')).toBe(version);
      await ensureUsers(
        jes.server.db,
        Object.entries(users).map(([name, password]) => ({ name, password })),
      );
      await expect.poll(() => states.knownVersion('bob')).toBeUndefined();
    } finally {
      await unlisten();
      await states.stop();
    }
  });
});
