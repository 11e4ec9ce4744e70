// A stream ends when the token it was opened with expires (the contract's streamJobEvents: "It ends when its token
// expires"), on the sandbox's clock: moved here to an hour after the login, less a moment, so that the end comes
// within the test rather than an hour later. The client then logs in again and resumes.
import { afterAll, beforeAll, expect, it } from 'vitest';
import { type Sandbox, startSandbox } from '../src/server.ts';
import { readStream } from './support/event-streams.ts';

let ahead = 0;
let sandbox: Sandbox;
beforeAll(async () => {
  sandbox = await startSandbox({ seed: 2, speed: 1, now: () => Date.now() + ahead });
});
afterAll(() => sandbox?.close());

it('ends a stream when its token expires; the token is then refused', async () => {
  const login = await fetch(`${sandbox.url}/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ username: 'expiring', password: 'any' }),
  });
  const auth = { authorization: `Bearer ${(await login.json()).access_token}` };
  // 300 ms before the token's hour is up.
  ahead = 3600 * 1000 - 300;
  const res = await fetch(`${sandbox.url}/events`, { headers: auth });
  expect(res.status).toBe(200);
  const read = await readStream(res);
  expect([read.ended, read.events]).toEqual([true, []]);
  const again = await fetch(`${sandbox.url}/events`, { headers: auth });
  expect([again.status, (await again.json()).code]).toEqual([401, 'invalid_token']);
});
