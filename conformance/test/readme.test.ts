// What the READMEs say of the suite is what the registry and the contract hold, so that no count goes stale
// again (the root README said 19 checks when there were 20, this one "the first fourteen" of 15 behavioural
// checks and `14 of 14 operations` when the contract had 19): the number of checks, behavioural and response
// checks, the table of checks in running order with the operations of each, and the sample output (the versions
// line, each check's operations, the coverage totals and per-operation statuses, the closing line).
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { checks } from '../src/checks/registry.ts';
import { responseChecks } from '../src/checks/response-conformance.ts';
import { Contract } from '../src/contract/contract.ts';
import { coverage } from '../src/coverage.ts';
import { versionsText } from '../src/report/console.ts';

const read = (path: string) => readFileSync(join(import.meta.dirname, path), 'utf8');
const rootReadme = read('../../README.md');
const readme = read('../README.md');
const contract = new Contract();
const documented = coverage(contract, []).operations;
const operationIds = new Set(documented.map((op) => op.operationId));
const behavioural = checks.length - responseChecks.length;

const words = ['zero', 'one', 'two', 'three', 'four', 'five', 'six', 'seven', 'eight', 'nine', 'ten', 'eleven'];
words.push('twelve', 'thirteen', 'fourteen', 'fifteen', 'sixteen', 'seventeen', 'eighteen', 'nineteen', 'twenty');
/** A count as the prose writes it (`15` or `fifteen`). */
const count = (text: string | undefined) => (text && /^\d+$/.test(text) ? Number(text) : words.indexOf(text ?? ''));

/** Every match of `pattern` (global) in `text`, or a failure naming what was looked for. */
function matches(text: string, pattern: RegExp, what: string): RegExpMatchArray[] {
  const found = [...text.matchAll(pattern)];
  expect(found, `no ${what} found (${pattern})`).not.toEqual([]);
  return found;
}

it('the root README counts the checks', () => {
  for (const [, n] of matches(rootReadme, /(\w+) named checks/g, 'count of named checks'))
    expect(count(n), `"${n} named checks"`).toBe(checks.length);
});

it('counts the behavioural and the response checks', () => {
  for (const [, n] of matches(readme, /The first (\w+) are behavioural/g, 'count of behavioural checks'))
    expect(count(n), `"the first ${n} are behavioural"`).toBe(behavioural);
  for (const [, n] of matches(readme, /the (\w+) response checks/gi, 'count of response checks'))
    expect(count(n), `"the ${n} response checks"`).toBe(responseChecks.length);
});

it('has a row per check in the table of checks, in running order, with the operations of each', () => {
  const rows = matches(readme, /^\| `([a-z_]+)` \| ([^|]+) \|/gm, 'row of the table of checks');
  expect(rows.map(([, name]) => name)).toEqual(checks.map((c) => c.name));
  for (const [, name, cell] of rows) {
    const listed = cell!.split(',').map((s) => s.trim());
    // A cell in words ("every path", "all") is prose; a list of operationIds must be the check's own.
    if (!listed.every((id) => operationIds.has(id))) continue;
    const check = checks.find((c) => c.name === name)!;
    expect([...listed].sort(), `the operations of ${name}`).toEqual([...check.operations].sort());
  }
});

describe('the sample output', () => {
  const sample = /```text\njes-conformance: [\s\S]*?```/.exec(readme)?.[0] ?? '';

  it('says the versions as the suite prints them, right under the heading', () => {
    const line = sample.split('\n')[2] ?? '';
    const [, contractVersion, reported, server] =
      /^contract (\S+) \(this suite\) · deployment reports contract (\S+), server (\S+)$/.exec(line) ?? [];
    expect(line).toBe(
      versionsText({ contract: contractVersion!, deployment: { contractVersion: reported!, version: server! } }),
    );
  });

  it('names each check with its operations as the suite prints them', () => {
    for (const [, name, operations] of matches(sample, /^(?:passed|failed) +(\w+) \[([^\]]*)\]/gm, 'check line')) {
      const check = checks.find((c) => c.name === name);
      expect(check, `the sample's check ${name}`).toBeDefined();
      expect(operations).toBe(check!.operations.includes('*') ? 'every operation' : check!.operations.join(', '));
    }
  });

  it("gives the contract's numbers of operations and documented statuses, and each operation's statuses", () => {
    const [, called, operations, seen, statuses] = matches(
      sample,
      /^coverage: (\d+) of (\d+) operations called; (\d+) of (\d+) documented statuses seen/gm,
      'coverage line',
    )[0]!;
    expect(Number(operations)).toBe(documented.length);
    expect(Number(statuses)).toBe(documented.reduce((n, op) => n + op.documented.length, 0));
    expect(Number(called)).toBeLessThanOrEqual(Number(operations));
    expect(Number(seen)).toBeLessThanOrEqual(Number(statuses));
    const lines = /^ {2}(\w+) +([A-Z]+ \S+) +\d+ requests? +seen ([\d ]+?) +never ([\d ]+)$/gm;
    for (const [, id, label, seenHere, never] of matches(sample, lines, 'coverage line of an operation')) {
      const op = documented.find((o) => o.operationId === id);
      expect(op?.label, `the sample's operation ${id}`).toBe(label);
      const both = `${seenHere} ${never}`.split(' ').map(Number);
      expect(both.sort((a, b) => a - b)).toEqual(op!.documented);
    }
  });

  it('closes with as many checks as there are', () => {
    const [, passed, failed, skipped] = matches(
      sample,
      /^(\d+) passed, (\d+) failed, (\d+) skipped$/gm,
      'closing line',
    )[0]!;
    expect(Number(passed) + Number(failed) + Number(skipped)).toBe(checks.length);
  });
});
