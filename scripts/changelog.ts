// docs/changelog.md: what changed in the contract from each released version (contract/releases/) to the next, and
// from the newest release to openapi.yaml while that says a higher version, newest first, as scripts/contract-diff.ts
// finds it, breaking changes first. Rendered in memory: `npm run generate` writes it (its `changelog` kind), the
// guides render it as docs/guides/changelog.html, and the drift check fails while the committed file differs.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'yaml';
import { compareContracts, type Difference } from './contract-diff.ts';
import { newer, parseVersion, releasedContract, releasedVersions } from './releases.ts';

export const changelogPath = 'docs/changelog.md';

/** Differences told alike in several operations (a shared parameter, a new answer), as one line. */
interface Entry {
  difference: Difference;
  operations: string[];
}

function entriesOf(differences: readonly Difference[]): Entry[] {
  const entries = new Map<string, Entry>();
  for (const difference of differences) {
    const key = [difference.level, difference.rule, difference.subject, difference.detail].join('\u0000');
    const entry = entries.get(key) ?? { difference, operations: [] };
    if (difference.operation && !entry.operations.includes(difference.operation))
      entry.operations.push(difference.operation);
    entries.set(key, entry);
  }
  return [...entries.values()];
}

function line({ difference, operations }: Entry): string {
  const where = operations.map((operation) => `\`${operation}\``).join(', ');
  const what = difference.subject ? (where ? `${difference.subject} of ${where}` : difference.subject) : where;
  return `- ${what.charAt(0).toUpperCase()}${what.slice(1)}: ${difference.detail}.`;
}

/** A version's section: what changed since `previous`, or that it is the first. */
function section(heading: string, previous: Record<string, any> | undefined, current: Record<string, any>): string {
  const lines = [`## ${heading}`, ''];
  if (!previous) return [...lines, 'The first released version.', ''].join('\n');
  const differences = compareContracts(previous, current);
  const [from, to] = [String(previous.info.version), String(current.info.version)];
  if (differences.length === 0) {
    lines.push(`Since ${from}: no change to the operations, parameters, answers or bodies.`, '');
    return lines.join('\n');
  }
  const breaking = entriesOf(differences.filter((d) => d.level === 'breaking'));
  const others = entriesOf(differences.filter((d) => d.level === 'change'));
  const total = breaking.length + others.length;
  const some = breaking.length === total ? 'all' : breaking.length ? `${breaking.length} of them` : 'none';
  lines.push(`Since ${from}: ${total} change${total === 1 ? '' : 's'}, ${some} breaking.`, '');
  if (breaking.length) {
    lines.push('### Breaking', '');
    if (parseVersion(to)![0] === parseVersion(from)![0])
      lines.push(
        `Released under a minor version, before \`npm run lint\` asked a new major version for a breaking change.`,
        '',
      );
    lines.push(...breaking.map(line), '');
  }
  if (others.length) lines.push('### Other changes', '', ...others.map(line), '');
  return lines.join('\n');
}

const introduction = ([major, minor]: [number, number, number]) => `# Changelog

<!-- Generated from contract/releases/*.yaml and openapi.yaml by scripts/changelog.ts: run npm run generate, do not edit. -->

What changed in the contract ([openapi.yaml](../openapi.yaml)) from each version to the next, newest first: its
operations, parameters and answers, and the members and values of their bodies (a response header, a reworded
description or a new example is not listed). A **breaking** change may stop a client written for the version before
it from working: a member it reads no longer sent, a value it has not seen, a request it sends refused. Each
version's breaking changes come first.

A member is named after the schema that holds it, as in the [reference](index.html): \`Job.executions.*.data\` is
the \`data\` of each execution of a \`Job\` (\`*\` stands for any key of a map, \`[]\` for any item of a list). A
member of a schema shared by several operations is listed once.

\`info.version\` follows semantic versioning. The packages \`@jes/server\`, \`@jes/client\`, \`@jes/conformance\` and
\`@jes/sandbox\` carry the contract's major.minor, with a patch of their own for fixes that leave the contract alone:
\`@jes/server\` ${major}.${minor}.x implements the contract ${major}.${minor}.0, and its \`GET /healthz\` says both. A version is released when
its contract is kept in the repository (\`contract/releases/\`); one above the newest release is marked unreleased.
`;

/** docs/changelog.md for the checkout at `root`. */
export function renderChangelog(root: string): string {
  const versions = releasedVersions(root);
  const contracts = versions.map((version) => releasedContract(version, root));
  const current = parse(readFileSync(join(root, 'openapi.yaml'), 'utf8'));
  const sections = contracts.map((contract, i) => section(versions[i]!, contracts[i - 1], contract));
  const newest = versions.at(-1);
  const version = String(current.info.version);
  if (newest === undefined || newer(version, newest))
    sections.push(section(`${version} (unreleased)`, contracts.at(-1), current));
  return [introduction(parseVersion(version)!), ...sections.reverse()].join('\n');
}
