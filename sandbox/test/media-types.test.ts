// A body of a media type the operation does not take is 415 saying what it accepts and what to send, with the
// reference server's words (the cases are server/test/media-types.test.ts's; issue 13).
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { Sandbox } from '../src/server.ts';
import { refusedMediaTypes } from '../../test/support/media-types.ts';
import { bearer, startedSandbox } from './support/hostile-requests.ts';

let sandbox: Sandbox;
let call: Awaited<ReturnType<typeof startedSandbox>>['call'];
beforeAll(async () => ({ sandbox, call } = await startedSandbox()));
afterAll(() => sandbox?.close());

it.each(refusedMediaTypes)('$what', async ({ path, contentType, body, detail }) => {
  const answer = await call('POST', path, {
    headers: { ...bearer, ...(contentType ? { 'content-type': contentType } : {}) },
    body,
  });
  expect([answer.status, answer.body.code, answer.body.detail]).toEqual([415, 'unsupported_media_type', detail]);
});
