// The released contracts: contract/releases/<version>.yaml, one per released version of openapi.yaml (releasing a
// version is copying openapi.yaml there), and the order of semantic versions, for the breaking-change gate, the
// package-version check and the changelog.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'yaml';

/** major.minor.patch as numbers (a pre-release suffix is ignored); undefined for text that is not a version. */
export function parseVersion(text: string): [number, number, number] | undefined {
  const match = /^(\d+)\.(\d+)\.(\d+)(?:-[0-9A-Za-z.-]+)?$/.exec(text);
  return match ? [Number(match[1]), Number(match[2]), Number(match[3])] : undefined;
}

/** Whether version `a` is above `b` (both major.minor.patch). */
export function newer(a: string, b: string): boolean {
  const [x, y] = [parseVersion(a)!, parseVersion(b)!];
  for (let i = 0; i < 3; i++) if (x[i] !== y[i]) return x[i]! > y[i]!;
  return false;
}

const releasesOf = (root: string) => join(root, 'contract/releases');

/** The released versions in the checkout at `root` (npm runs scripts at the repository's root), oldest first. */
export function releasedVersions(root = process.cwd()): string[] {
  return readdirSync(releasesOf(root))
    .filter((f) => /^\d+\.\d+\.\d+\.yaml$/.test(f))
    .map((f) => f.slice(0, -5))
    .sort((a, b) => (newer(a, b) ? 1 : newer(b, a) ? -1 : 0));
}

/** The contract of a released version, as data. */
export function releasedContract(version: string, root = process.cwd()): Record<string, any> {
  return parse(readFileSync(join(releasesOf(root), `${version}.yaml`), 'utf8'));
}
