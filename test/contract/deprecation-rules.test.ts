// The lint rules of redocly.yaml on deprecation (issue 29): a deprecated operation says since when (RFC 9745's
// Deprecation is a date), only a deprecated one does, and both days are YYYY-MM-DD. Redocly run as `npm run lint`
// runs it, on copies of the contract with listProblems changed; the copy the deprecation tests use passes.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, it } from 'vitest';
import { parse, stringify } from 'yaml';
import { contractPath, root } from '../../scripts/generated.ts';
import { deprecatedContract } from '../support/deprecated-contract.ts';

const cli = createRequire(import.meta.url).resolve('@redocly/cli/bin/cli.js');
const dir = mkdtempSync(join(tmpdir(), 'jes-deprecation-rules-'));

/** Redocly's exit code on the contract at `path` (as `npm run lint` runs it), and the rules broken, with how often. */
function lint(path: string): { status: number | null; rules: string[] } {
  const run = spawnSync(
    process.execPath,
    [cli, 'lint', path, '--config', join(root, 'redocly.yaml'), '--format', 'summary', '--max-problems', '100'],
    { encoding: 'utf8', env: { ...process.env, REDOCLY_TELEMETRY: 'off' } },
  );
  const found = [...`${run.stdout}${run.stderr}`.matchAll(/^(?:error|warning)\s+(\S+): (\d+)$/gm)];
  return { status: run.status, rules: found.map((m) => `${m[1]} ×${m[2]}`) };
}

/** A copy of the contract with `fields` added to listProblems. */
function withListProblems(name: string, fields: Record<string, unknown>): string {
  const doc = parse(readFileSync(contractPath, 'utf8'));
  Object.assign(doc.paths['/problem'].get, fields);
  const path = join(dir, `${name}.yaml`);
  writeFileSync(path, stringify(doc, { lineWidth: 0 }));
  return path;
}

it.each([
  ['undated', { deprecated: true }, ['rule/deprecated-operation-dated ×1']],
  ['dated, not deprecated', { 'x-deprecated-at': '2026-12-01' }, ['rule/deprecated-operation-dated ×1']],
  ['a date without its zero', { deprecated: true, 'x-deprecated-at': '2026-12-1' }, ['rule/deprecation-dates ×1']],
  [
    'a sunset that is a time',
    { deprecated: true, 'x-deprecated-at': '2026-12-01', 'x-sunset': '2027-06-01T00:00:00Z' },
    ['rule/deprecation-dates ×1'],
  ],
])('refuses listProblems %s', (name, fields, rules) => {
  expect(lint(withListProblems(name, fields))).toEqual({ status: 1, rules });
});

it('passes the copy the deprecation tests use', () => {
  expect(lint(deprecatedContract())).toEqual({ status: 0, rules: [] });
});
