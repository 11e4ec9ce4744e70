// What every refusal must look like: an RFC 9457 problem with its documented code, the request id in header and
// body, and no stack trace.
import { expect } from 'vitest';

export function expectProblem(
  reply: { status: number; headers: Headers | Record<string, unknown>; body: any },
  status: number,
  code: string,
): void {
  const header = (name: string) =>
    reply.headers instanceof Headers ? reply.headers.get(name) : (reply.headers[name] as string | undefined);
  expect({ status: reply.status, code: reply.body?.code }).toEqual({ status, code });
  expect(header('content-type')).toMatch(/^application\/problem\+json/);
  expect(reply.body).toMatchObject({
    type: `urn:jes:problem:${code}`,
    status,
    title: expect.any(String),
    detail: expect.any(String),
  });
  expect(reply.body.request_id).toBe(header('x-request-id'));
  expect(JSON.stringify(reply.body)).not.toMatch(/\bat .*\.ts:\d+/);
}
