// The sandbox sends a deprecated operation's Deprecation (RFC 9745) and Sunset (RFC 8594) as the reference server
// does (issue 29), on every answer of it, problems included, in place of Prism's own `deprecation: true`; and
// nothing on the operations the contract does not deprecate. Sandboxes on a copy of the contract with
// listProblems deprecated and on the contract itself, over HTTP.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Sandbox, startSandbox } from '../src/server.ts';
import { deprecatedContract, deprecation } from '../../test/support/deprecated-contract.ts';

const bearer = { authorization: 'Bearer any-well-formed-token' };
const noticeOf = (res: Response) => ({
  deprecation: res.headers.get('deprecation'),
  sunset: res.headers.get('sunset'),
});
const none = { deprecation: null, sunset: null };

describe('on a contract that deprecates listProblems', () => {
  let sandbox: Sandbox;
  beforeAll(async () => {
    sandbox = await startSandbox({ contractPath: deprecatedContract(), stateless: true });
  });
  afterAll(() => sandbox?.close());

  it.each([
    ['its example', { headers: bearer }, '', 200],
    ['a 401 without a token', {}, '', 401],
    ['a 400 for a query it does not take', { headers: bearer }, '?colour=blue', 400],
  ])('carries them on %s', async (_what, init, query, status) => {
    const res = await fetch(`${sandbox.url}${deprecation.path}${query}`, init);
    expect(res.status).toBe(status);
    expect(noticeOf(res)).toEqual(deprecation.headers);
  });

  it('leaves them off the other operations, and off a method the path lacks', async () => {
    const other = await fetch(`${sandbox.url}/problem/maxcut`, { headers: bearer });
    expect([other.status, noticeOf(other)]).toEqual([200, none]);
    const unsupported = await fetch(`${sandbox.url}${deprecation.path}`, { method: 'PUT', headers: bearer });
    expect([unsupported.status, noticeOf(unsupported)]).toEqual([405, none]);
  });
});

describe('on the contract itself', () => {
  let sandbox: Sandbox;
  beforeAll(async () => {
    sandbox = await startSandbox({ stateless: true });
  });
  afterAll(() => sandbox?.close());

  it('sends neither header', async () => {
    const res = await fetch(`${sandbox.url}${deprecation.path}`, { headers: bearer });
    expect([res.status, noticeOf(res)]).toEqual([200, none]);
  });
});
