// Deprecation (RFC 9745) and Sunset (RFC 8594) from the contract (issue 29): the headers a deprecated operation's
// answers carry, worked out from copies of the real contract with one operation deprecated (no operation of it is
// deprecated today, and the server reads no other), the contracts that cannot be sent as headers, and over HTTP
// that the real server's answers carry neither header while the contract deprecates nothing.
import { describe, expect, it } from 'vitest';
import { contract } from '../src/core/contract.ts';
import { DeprecationError, deprecationHeaders } from '@jes/contract';
import { sharedServer } from './support/shared-server.ts';

/** The real contract with `fields` added to GET /problem (listProblems). */
function withListProblems(fields: Record<string, unknown>) {
  const copy = structuredClone(contract);
  Object.assign(copy.paths['/problem']!.get as object, fields);
  return copy;
}

describe('deprecationHeaders', () => {
  it('has an entry for each operation the contract deprecates, and for no other', () => {
    const deprecated = Object.values(contract.paths).flatMap((item) =>
      Object.values(item).flatMap((op) => ((op as { deprecated?: boolean }).deprecated ? [op] : [])),
    );
    const ids = deprecated.map((op) => (op as { operationId: string }).operationId);
    expect([...deprecationHeaders(contract).keys()]).toEqual(ids);
  });

  // RFC 9745's own example says @1688169599 for 2023-06-30T23:59:59Z; a date is its first second, UTC.
  it.each([
    [{ deprecated: true, 'x-deprecated-at': '2023-07-01' }, { Deprecation: '@1688169600' }],
    [
      { deprecated: true, 'x-deprecated-at': '2023-07-01', 'x-sunset': '2024-07-01' },
      { Deprecation: '@1688169600', Sunset: 'Mon, 01 Jul 2024 00:00:00 GMT' },
    ],
    [
      { deprecated: true, 'x-deprecated-at': '2026-12-01', 'x-sunset': '2026-12-01' },
      { Deprecation: '@1796083200', Sunset: 'Tue, 01 Dec 2026 00:00:00 GMT' },
    ],
  ])('%o gives listProblems %o', (fields, headers) => {
    const notices = deprecationHeaders(withListProblems(fields));
    expect(Object.fromEntries(notices)).toEqual({ listProblems: headers });
  });

  it.each([
    [{ deprecated: true }, /listProblems: deprecated: true needs x-deprecated-at/],
    [{ deprecated: true, 'x-deprecated-at': '2026-02-30' }, /listProblems x-deprecated-at: expected a date/],
    [{ deprecated: true, 'x-deprecated-at': '2026-12-1' }, /expected a date, YYYY-MM-DD; got "2026-12-1"/],
    [{ deprecated: true, 'x-deprecated-at': '2026-12-01T00:00:00Z' }, /expected a date/],
    [{ deprecated: true, 'x-deprecated-at': 20261201 }, /expected a date/],
    [{ deprecated: true, 'x-deprecated-at': '2026-12-01', 'x-sunset': 'soon' }, /listProblems x-sunset: expected/],
    [
      { deprecated: true, 'x-deprecated-at': '2026-12-01', 'x-sunset': '2026-11-30' },
      /x-sunset 2026-11-30 is before x-deprecated-at 2026-12-01/,
    ],
    [{ 'x-deprecated-at': '2026-12-01' }, /belong to an operation with deprecated: true/],
    [{ deprecated: false, 'x-sunset': '2026-12-01' }, /belong to an operation with deprecated: true/],
  ])('refuses %o', (fields, message) => {
    expect(() => deprecationHeaders(withListProblems(fields))).toThrow(DeprecationError);
    expect(() => deprecationHeaders(withListProblems(fields))).toThrow(message);
  });
});

describe('the answers of operations the contract does not deprecate', () => {
  const jes = sharedServer();

  it('carry neither Deprecation nor Sunset, successes and problems alike', async () => {
    const replies = [
      await jes.anonymous.get('/healthz'),
      await jes.anonymous.get('/problem'),
      await jes.alice.get('/problem'),
      await jes.alice.get('/job/NOSUCHJOB000'),
      await jes.alice.post('/problem/maxcut', { num_nodes: 2 }),
    ];
    expect(replies.map((r) => r.status)).toEqual([200, 401, 200, 404, 400]);
    for (const reply of replies) {
      expect(reply.headers.get('deprecation')).toBeNull();
      expect(reply.headers.get('sunset')).toBeNull();
    }
  });
});
