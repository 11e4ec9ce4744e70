// The one version source (issue 29, 3), checked by `npm run lint`: openapi.yaml's info.version. Every package of the
// repository (the root's and each workspace's package.json) carries one version, whose major.minor is the contract's
// and whose patch is not below the contract's: a package says which contract it implements by its version, and a fix
// that leaves the contract alone raises the packages' patch only. package-lock.json's copies of these versions, the
// ranges by which one @jes package depends on another, and the /healthz examples the sandbox answers follow the rule.
// Prints what disagrees, and exits 1 if anything does.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'yaml';
import { parseVersion } from './releases.ts';

/** Whether a package's version keeps the rule for the contract's: the same major.minor, a patch not below its own. */
export function followsContract(packageVersion: string, contractVersion: string): boolean {
  const [p, c] = [parseVersion(packageVersion), parseVersion(contractVersion)];
  return !!p && !!c && p[0] === c[0] && p[1] === c[1] && p[2] >= c[2];
}

interface Manifest {
  name: string;
  version: string;
  workspaces?: string[];
  dependencies?: Record<string, string>;
  devDependencies?: Record<string, string>;
  peerDependencies?: Record<string, string>;
  optionalDependencies?: Record<string, string>;
}

const readJson = <T>(path: string): T => JSON.parse(readFileSync(path, 'utf8')) as T;

/** What breaks the rule in the checkout at `root`, a line each; empty when every version agrees. */
export function versionDisagreements(root: string): string[] {
  const problems: string[] = [];
  const contract = parse(readFileSync(join(root, 'openapi.yaml'), 'utf8'));
  const contractVersion = String(contract.info.version);
  if (!parseVersion(contractVersion)) return [`openapi.yaml: info.version ${contractVersion} is not major.minor.patch`];

  const top = readJson<Manifest>(join(root, 'package.json'));
  const manifests = new Map<string, Manifest>([
    ['', top],
    ...(top.workspaces ?? []).map((dir) => [dir, readJson<Manifest>(join(root, dir, 'package.json'))] as const),
  ]);
  const file = (dir: string) => (dir ? `${dir}/package.json` : 'package.json');
  const version = top.version;
  for (const [dir, manifest] of manifests) {
    if (manifest.version !== version)
      problems.push(
        `${file(dir)}: ${manifest.name} is ${manifest.version}, package.json ${version}: one version for all`,
      );
  }
  if (!followsContract(version, contractVersion))
    problems.push(
      `package.json: the packages' ${version} does not follow the contract's ${contractVersion} ` +
        `(the same major.minor, a patch not below the contract's)`,
    );

  const lock = readJson<{ packages: Record<string, { version?: string }> }>(join(root, 'package-lock.json'));
  for (const [dir, manifest] of manifests) {
    const locked = lock.packages[dir]?.version;
    if (locked !== manifest.version)
      problems.push(
        `package-lock.json: "${dir}" is ${locked ?? 'missing'}, ${file(dir)} ${manifest.version} (npm install --package-lock-only)`,
      );
  }

  const ours = new Set([...manifests.values()].map((m) => m.name));
  for (const [dir, manifest] of manifests) {
    const ranges = {
      ...manifest.dependencies,
      ...manifest.devDependencies,
      ...manifest.peerDependencies,
      ...manifest.optionalDependencies,
    };
    for (const [name, range] of Object.entries(ranges)) {
      if (ours.has(name) && range !== `^${version}` && range !== version)
        problems.push(`${file(dir)}: depends on ${name} ${range}, not ^${version}: the packages are released together`);
    }
  }

  const examples = contract.paths?.['/healthz']?.get?.responses?.['200']?.content?.['application/json']?.examples;
  for (const [name, example] of Object.entries<{ value?: { version?: string; contract_version?: string } }>(
    examples ?? {},
  )) {
    const { version: server, contract_version: implemented } = example.value ?? {};
    if (implemented !== contractVersion || !followsContract(String(server), contractVersion))
      problems.push(
        `openapi.yaml: the example "${name}" of GET /healthz says version ${server} and contract_version ` +
          `${implemented}: the contract is ${contractVersion}`,
      );
  }
  return problems;
}

if (import.meta.main) {
  const problems = versionDisagreements(process.cwd());
  for (const problem of problems) console.error(problem);
  if (problems.length === 0) {
    const { version } = readJson<Manifest>(join(process.cwd(), 'package.json'));
    console.log(`packages ${version}, package-lock.json and the /healthz examples follow the contract's version`);
  }
  process.exit(problems.length > 0 ? 1 : 0);
}
