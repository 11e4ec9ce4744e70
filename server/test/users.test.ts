// JES_USERS is the whole list of users. A user it no longer names is disabled at start-up: its tokens are
// refused (invalid_token) and it cannot log in; a changed password revokes the user's tokens; a token whose
// user does not exist is invalid_token, not a 500 from a foreign key. Before, a removed user kept working
// (issue 10). Run on both databases, restarting on the same data.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SignJWT } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Running } from '../src/start/main.ts';
import { expectProblem } from './support/problems.ts';
import { backends, Client, jwtSecret, sixNodes, startTestServer } from './support/server.ts';
import { node, runChild, serverCli } from '../../test/support/child-server.ts';
import { usersSetting } from '../../test/support/users-setting.ts';

/** The same user's client, talking to another server (a restart) with the token it had. */
const at = (url: string, client: Client) => Object.assign(new Client(url), { token: client.token });
const dirs: string[] = [];
afterAll(async () => Promise.all(dirs.map((d) => rm(d, { recursive: true, force: true }))));

describe.each(await backends())('on %s', (name, backend) => {
  let env: Record<string, string>;
  const running: Running[] = [];
  const start = async (users: Record<string, string> | undefined) => {
    const server = await startTestServer({ ...env, JES_WORKERS: '1', JES_USERS: users ? usersSetting(users) : '' });
    running.push(server);
    return server;
  };
  const stop = async (server: Running) => {
    running.splice(running.indexOf(server), 1);
    await server.close();
  };
  beforeAll(async () => {
    const dir = await mkdtemp(join(tmpdir(), 'jes-users-'));
    dirs.push(dir);
    env = { ...(await backend.env()), JES_DATA_DIR: dir };
  });
  afterAll(async () => {
    await Promise.all(running.map((s) => s.close()));
    await backend.drop();
  });

  it('disables users JES_USERS leaves out, revokes tokens on a new password, and keeps everyone else', async () => {
    const first = await start({ alice: 'alice-1', bob: 'bob-1', carol: 'carol-1' });
    let alice = await new Client(first.url).login('alice', 'alice-1');
    let bob = await new Client(first.url).login('bob', 'bob-1');
    let carol = await new Client(first.url).login('carol', 'carol-1');
    const carolsJob = await carol.start(sixNodes);
    await carol.waitFor(carolsJob);
    await stop(first);

    // carol is no longer listed: her token and her password stop working; alice and bob carry on.
    const second = await start({ alice: 'alice-1', bob: 'bob-1' });
    [alice, bob, carol] = [alice, bob, carol].map((client) => at(second.url, client)) as [Client, Client, Client];
    const refused = await carol.get(`/job/${carolsJob}`);
    expectProblem(refused, 401, 'invalid_token');
    expect(refused.body.detail).toMatch(/no longer exists or is disabled/);
    expectProblem(
      await new Client(second.url).post('/login', { username: 'carol', password: 'carol-1' }),
      401,
      'invalid_credentials',
    );
    expectProblem(await carol.post('/problem/maxcut', sixNodes), 401, 'invalid_token');
    expect((await alice.get('/job')).status).toBe(200);
    expect((await bob.get('/job')).status).toBe(200);
    await stop(second);

    // alice gets a new password: her old token is revoked, the old password refused, the new one works; carol returns.
    const third = await start({ alice: 'alice-2', bob: 'bob-1', carol: 'carol-1' });
    [alice, bob, carol] = [alice, bob, carol].map((client) => at(third.url, client)) as [Client, Client, Client];
    const revoked = await alice.get('/job');
    expectProblem(revoked, 401, 'invalid_token');
    expect(revoked.body.detail).toMatch(/revoked/);
    expectProblem(
      await new Client(third.url).post('/login', { username: 'alice', password: 'alice-1' }),
      401,
      'invalid_credentials',
    );
    await alice.login('alice', 'alice-2');
    expect((await alice.get('/job')).status).toBe(200);
    expect((await bob.get('/job')).status).toBe(200);
    // Re-enabled, carol logs in again; the token from before she was disabled stays refused.
    expectProblem(await carol.get('/job'), 401, 'invalid_token');
    await carol.login('carol', 'carol-1');
    expect((await carol.get(`/job/${carolsJob}`)).body.job[carolsJob].status).toBe('FINISHED');
    await stop(third);

    // Without JES_USERS the users stay as they are (no demo user is made while some are enabled).
    const fourth = await start(undefined);
    expect(fourth.demoPassword).toBeUndefined();
    await new Client(fourth.url).login('bob', 'bob-1');
    await stop(fourth);
  });

  // What the database stores is the same either way: one run is enough.
  it.skipIf(name === 'PostgreSQL')(
    'takes a stored hash in place of a password: the same hash keeps tokens, another (a new password) revokes them',
    async () => {
      // As an operator makes them: jes-server hash-password, the password piped in.
      const hashed = async (password: string) =>
        (await runChild(node(serverCli, 'hash-password'), { input: `${password}\n` })).stdout.trim();
      const [first, second] = await Promise.all([hashed('dave-1'), hashed('dave-2')]);
      expect(first).toMatch(/^scrypt\$32768\$8\$1\$[\w-]{22}\$[\w-]{43}$/);

      let server = await start({ alice: 'alice-1', dave: first });
      const dave = await new Client(server.url).login('dave', 'dave-1');
      expectProblem(
        await new Client(server.url).post('/login', { username: 'dave', password: first }),
        401,
        'invalid_credentials',
      );
      await stop(server);
      server = await start({ alice: 'alice-1', dave: first });
      expect((await at(server.url, dave).get('/job')).status).toBe(200);
      await stop(server);
      server = await start({ alice: 'alice-1', dave: second });
      expectProblem(await at(server.url, dave).get('/job'), 401, 'invalid_token');
      await new Client(server.url).login('dave', 'dave-2');
      await stop(server);
    },
  );

  it('refuses a well-signed token for a user who does not exist with invalid_token (it was a 500 from a foreign key)', async () => {
    const server = await start({ alice: 'alice-1' });
    // The server's own now, from a token it issued: no clock of this process is compared with its clock.
    const issued = (await new Client(server.url).login('alice', 'alice-1')).token!;
    const now = (JSON.parse(Buffer.from(issued.split('.')[1]!, 'base64url').toString('utf8')) as { iat: number }).iat;
    const token = await new SignJWT({ env: 'production', ver: 0 })
      .setProtectedHeader({ alg: 'HS256' })
      .setSubject('mallory')
      .setIssuedAt(now)
      .setExpirationTime(now + 600)
      .sign(new TextEncoder().encode(jwtSecret));
    const mallory = new Client(server.url);
    mallory.token = token;
    expectProblem(await mallory.post('/problem/maxcut', sixNodes), 401, 'invalid_token');
    expectProblem(await mallory.get('/job'), 401, 'invalid_token');
    await stop(server);
  });

  // Each process remembers a user's token version for 2 s, and forgets it at once when another announces a change.
  it.skipIf(name !== 'PostgreSQL')(
    'revokes in every process on the database within seconds, not only in the one that restarted',
    async () => {
      const serving = await start({ alice: 'alice-1', carol: 'carol-1' });
      const carol = await new Client(serving.url).login('carol', 'carol-1');
      expect((await carol.get('/job')).status).toBe(200);
      // Another process starts with carol left out; the one already serving hears of it.
      const restarted = await start({ alice: 'alice-1' });
      const started = performance.now();
      let reply = await carol.get('/job');
      while (reply.status === 200 && performance.now() - started < 5000) reply = await carol.get('/job');
      expectProblem(reply, 401, 'invalid_token');
      await stop(restarted);
      await stop(serving);
    },
  );
});
