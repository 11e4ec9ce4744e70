// A copy of the contract with one operation deprecated (issue 29), for what no operation of the real contract shows
// yet: listProblems (GET /problem), deprecated since 2026-12-01 with its sunset on 2027-06-01. Written once per
// test file into a folder of its own in the temporary folder.
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parse, stringify } from 'yaml';
import { contractPath } from '../../scripts/generated.ts';

export const deprecation = {
  operationId: 'listProblems',
  path: '/problem',
  at: '2026-12-01',
  sunset: '2027-06-01',
  /** The headers its answers carry: RFC 9745's Structured Field Date and RFC 8594's HTTP-date. */
  headers: { deprecation: '@1796083200', sunset: 'Tue, 01 Jun 2027 00:00:00 GMT' },
};

/** The path of the copy. */
export function deprecatedContract(): string {
  const doc = parse(readFileSync(contractPath, 'utf8'));
  Object.assign(doc.paths[deprecation.path].get, {
    deprecated: true,
    'x-deprecated-at': deprecation.at,
    'x-sunset': deprecation.sunset,
  });
  const path = join(mkdtempSync(join(tmpdir(), 'jes-deprecated-')), 'openapi.yaml');
  writeFileSync(path, stringify(doc, { lineWidth: 0 }));
  return path;
}
