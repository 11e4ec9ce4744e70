// The breaking-change gate of `npm run lint`: openapi.yaml against the last released contract (the newest file of
// contract/releases/, one per released version). A change that breaks a client or a server built on that release
// (scripts/contract-diff.ts) needs a new major version; any change needs a version above the release's. Prints what
// it found, and exits 1 when the version does not cover it.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'yaml';
import { compareContracts } from './contract-diff.ts';
import { newer, parseVersion, releasedContract, releasedVersions } from './releases.ts';

/** The checkout whose contract is gated: the working directory (npm runs lint at the repository's root). */
const root = process.cwd();
const major = (version: string) => parseVersion(version)![0];

/** What the gate says of `current` against the release `base`: the lines to print and whether it passes. */
export function gate(base: string, current: Record<string, any>): { lines: string[]; passed: boolean } {
  const version = String(current.info.version);
  const differences = compareContracts(releasedContract(base, root), current);
  const breaking = differences.filter((d) => d.level === 'breaking');
  const lines = breaking.map((d) => `  breaking (${d.rule}) ${d.where}: ${d.detail}`);
  let passed = true;
  if (differences.length > 0 && !newer(version, base)) {
    lines.push(
      `openapi.yaml differs from release ${base} (${differences.length} changes) but says version ${version}: raise it`,
    );
    passed = false;
  }
  if (breaking.length > 0 && major(version) <= major(base)) {
    lines.push(
      `${breaking.length} breaking change(s) since release ${base} need a new major version (${version} is not one)`,
    );
    passed = false;
  }
  if (passed)
    lines.push(
      `contract ${version} against release ${base}: ${differences.length} changes, ${breaking.length} breaking, covered by the version`,
    );
  return { lines, passed };
}

if (import.meta.main) {
  const current = parse(readFileSync(join(root, 'openapi.yaml'), 'utf8'));
  const base = releasedVersions(root).at(-1)!;
  const { lines, passed } = gate(base, current);
  for (const line of lines) (passed ? console.log : console.error)(line);
  process.exit(passed ? 0 : 1);
}
