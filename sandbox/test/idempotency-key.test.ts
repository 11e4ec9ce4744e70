// The sandbox and Idempotency-Key (contract 1.2.0): a key the contract allows is accepted on both operations
// that take one, one it refuses answers 400 invalid_request pointing at the header, as on the reference server
// (every answer is checked against the contract by send()).
// The sandbox is stateless: it never replays (docs/sandbox.md), so no Idempotent-Replayed and no 422 here.
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { Sandbox } from '../src/server.ts';
import { edgeList, graph, json, startedSandbox, upload } from './support/hostile-requests.ts';

let sandbox: Sandbox;
let call: Awaited<ReturnType<typeof startedSandbox>>['call'];
beforeAll(async () => ({ sandbox, call } = await startedSandbox()));
afterAll(() => sandbox?.close());

it.each([
  '8e03978e-40d5-43e8-bc93-6894a57f9324',
  '"quoted"',
  'a key with spaces inside',
  'k'.repeat(255),
  `"${'k'.repeat(255)}"`,
])('accepts the key %s', async (key) => {
  const started = await call('POST', '/problem/maxcut', {
    headers: { ...json, 'idempotency-key': key },
    body: graph,
  });
  expect(started.status).toBe(200);
  const form = upload({ filename: 'g.txt', value: edgeList });
  const uploaded = await call('POST', '/data_file', {
    headers: { ...form.headers, authorization: 'Bearer anything', 'idempotency-key': key },
    body: form.body,
  });
  expect(uploaded.status).toBe(201);
});

// As the reference server refuses them (the sandbox took the empty ones; contract 1.7.0 gives the rule as a pattern).
it.each(['k'.repeat(256), `"${'k'.repeat(256)}"`, 'clé', 'tab\there', '', '""'])(
  'refuses the key %s with 400 invalid_request',
  async (key) => {
    const answer = await call('POST', '/problem/maxcut', { headers: { ...json, 'idempotency-key': key }, body: graph });
    expect([answer.status, answer.body.code]).toEqual([400, 'invalid_request']);
    expect(answer.body.errors?.[0]?.pointer).toBe('/header/idempotency-key');
  },
);

it('refuses two Idempotency-Key headers with 400 invalid_request (Node joined them into one key)', async () => {
  const answer = await call('POST', '/problem/maxcut', {
    headers: { ...json, 'idempotency-key': ['dupA', 'dupB'] },
    body: graph,
  });
  expect([answer.status, answer.body.code]).toEqual([400, 'invalid_request']);
  expect(answer.body.errors).toEqual([{ pointer: '/header/idempotency-key', detail: 'is sent 2 times' }]);
});
