// The breaking-change gate of `npm run lint`: openapi.yaml against the last released contract (the newest file of
// contract/releases/, one per released version). A change that breaks a client or a server built on that release
// (scripts/contract-diff.ts) needs a new major version; any change needs a version above the release's. Prints what
// it found, and exits 1 when the version does not cover it.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'yaml';
import { compareContracts } from './contract-diff.ts';

/** The checkout whose contract is gated: the working directory (npm runs lint at the repository's root). */
const root = process.cwd();
const releases = join(root, 'contract/releases');

const semver = (text: string) => text.split('.').map(Number) as [number, number, number];
const newer = (a: string, b: string) => {
  const [x, y] = [semver(a), semver(b)];
  for (let i = 0; i < 3; i++) if (x[i] !== y[i]) return x[i]! > y[i]!;
  return false;
};

/** The released versions, oldest first. */
export function releasedVersions(): string[] {
  return readdirSync(releases)
    .filter((f) => /^\d+\.\d+\.\d+\.yaml$/.test(f))
    .map((f) => f.slice(0, -5))
    .sort((a, b) => (newer(a, b) ? 1 : newer(b, a) ? -1 : 0));
}

export const releasedContract = (version: string) => parse(readFileSync(join(releases, `${version}.yaml`), 'utf8'));

/** What the gate says of `current` against the release `base`: the lines to print and whether it passes. */
export function gate(base: string, current: Record<string, any>): { lines: string[]; passed: boolean } {
  const version = String(current.info.version);
  const differences = compareContracts(releasedContract(base), current);
  const breaking = differences.filter((d) => d.level === 'breaking');
  const lines = breaking.map((d) => `  breaking (${d.rule}) ${d.where}: ${d.detail}`);
  let passed = true;
  if (differences.length > 0 && !newer(version, base)) {
    lines.push(
      `openapi.yaml differs from release ${base} (${differences.length} changes) but says version ${version}: raise it`,
    );
    passed = false;
  }
  if (breaking.length > 0 && semver(version)[0] <= semver(base)[0]) {
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
  const base = releasedVersions().at(-1)!;
  const { lines, passed } = gate(base, current);
  for (const line of lines) (passed ? console.log : console.error)(line);
  process.exit(passed ? 0 : 1);
}
