// A body of a media type the operation does not take is 415 saying what it accepts and what to send (issue 13:
// curl -d got "This operation does not accept application/x-www-form-urlencoded"). The cases are shared with
// the sandbox's test.
import { expect, it } from 'vitest';
import { refusedMediaTypes } from '../../test/support/media-types.ts';
import { expectProblem } from './support/problems.ts';
import { rawRequest } from './support/raw-http.ts';
import { sharedServer } from './support/shared-server.ts';

const jes = sharedServer();

it.each(refusedMediaTypes)('$what', async ({ path, contentType, body, detail }) => {
  const headers: Record<string, string> = {
    authorization: `Bearer ${jes.alice.token}`,
    'content-length': String(Buffer.byteLength(body)),
  };
  if (contentType) headers['content-type'] = contentType;
  const reply = await rawRequest(jes.url, { method: 'POST', path, headers, body });
  expectProblem(reply, 415, 'unsupported_media_type');
  expect(reply.body.detail).toBe(detail);
});
