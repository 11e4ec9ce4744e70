// The one version source (scripts/package-versions.ts, run by npm run lint): the repository as it is keeps the rule,
// and each way the packages' versions can part from the contract's is caught, on a copy of the files that hold them.
import { spawnSync } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { followsContract, versionDisagreements } from '../../scripts/package-versions.ts';

const root = join(import.meta.dirname, '../..');
const script = join(root, 'scripts/package-versions.ts');
const workspaces: string[] = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')).workspaces;
const version: string = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')).version;
const [major, minor, patch] = version.split('.').map(Number) as [number, number, number];

const copies = mkdtempSync(join(tmpdir(), 'jes-versions-'));
afterAll(() => rmSync(copies, { recursive: true, force: true }));

/** A copy of the files that hold versions, changed by `edit` (which gets the copy's root). */
function treeWith(edit: (tree: string) => void): string {
  const tree = mkdtempSync(join(copies, 'tree-'));
  for (const file of [
    'package.json',
    'package-lock.json',
    'openapi.yaml',
    ...workspaces.map((w) => `${w}/package.json`),
  ]) {
    mkdirSync(join(tree, file, '..'), { recursive: true });
    cpSync(join(root, file), join(tree, file));
  }
  edit(tree);
  return tree;
}
const editJson = (tree: string, file: string, change: (json: any) => void) => {
  const json = JSON.parse(readFileSync(join(tree, file), 'utf8'));
  change(json);
  writeFileSync(join(tree, file), JSON.stringify(json, null, 2));
};
const setContractVersion = (tree: string, to: string) => {
  const path = join(tree, 'openapi.yaml');
  writeFileSync(path, readFileSync(path, 'utf8').replace(/^ {2}version: .*$/m, `  version: ${to}`));
};
/** A manifest's dependencies on @jes packages (released together) at `to`. */
const pinOurs = (manifest: { dependencies?: Record<string, string> }, to: string) => {
  for (const name of Object.keys(manifest.dependencies ?? {}))
    if (name.startsWith('@jes/')) manifest.dependencies![name] = to;
};
/** Every package (and the lock's copies) at `to`, with the ranges between them. */
const setPackageVersions = (tree: string, to: string) => {
  for (const dir of ['', ...workspaces]) {
    editJson(tree, dir ? `${dir}/package.json` : 'package.json', (pkg) => {
      pkg.version = to;
      pinOurs(pkg, to);
    });
    editJson(tree, 'package-lock.json', (lock) => {
      lock.packages[dir].version = to;
      pinOurs(lock.packages[dir], to);
      if (dir === '') lock.version = to;
    });
  }
};

describe('the version rule', () => {
  it.each([
    ['1.7.0', '1.7.0', true],
    ['1.7.3', '1.7.0', true],
    ['1.7.0', '1.7.1', false],
    ['1.6.9', '1.7.0', false],
    ['2.7.0', '1.7.0', false],
    ['0.1.0', '1.7.0', false],
  ])('packages %s for contract %s: %s', (pkg, contract, follows) => {
    expect(followsContract(pkg, contract)).toBe(follows);
  });
});

describe('the repository', () => {
  it('keeps it: the packages, the lock and the /healthz examples follow openapi.yaml, and lint runs the check', () => {
    expect(versionDisagreements(root)).toEqual([]);
    const run = spawnSync(process.execPath, [script], { cwd: root, encoding: 'utf8' });
    expect(run.status, run.stderr).toBe(0);
    expect(JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')).scripts.lint).toContain(
      'node scripts/package-versions.ts',
    );
  });

  it('keeps it with a patch of its own: every package one patch above the contract', () => {
    expect(
      versionDisagreements(treeWith((tree) => setPackageVersions(tree, `${major}.${minor}.${patch + 1}`))),
    ).toEqual([]);
  });
});

describe('a copy whose versions disagree', () => {
  it.each<[string, (tree: string) => void, RegExp]>([
    [
      'the contract a minor version ahead of the packages',
      (tree) => setContractVersion(tree, `${major}.${minor + 1}.0`),
      /^package\.json: the packages' .* does not follow the contract's/m,
    ],
    [
      'the contract a patch ahead of the packages',
      (tree) => setContractVersion(tree, `${major}.${minor}.${patch + 1}`),
      /does not follow the contract's/,
    ],
    [
      'one package raised alone',
      (tree) => editJson(tree, 'server/package.json', (pkg) => (pkg.version = `${major}.${minor}.${patch + 1}`)),
      /^server\/package\.json: @jes\/server is .*: one version for all$/m,
    ],
    [
      "the lock's copy of a version left behind",
      (tree) => editJson(tree, 'client/package.json', (pkg) => (pkg.version = '0.1.0')),
      /^package-lock\.json: "client" is .*, client\/package\.json 0\.1\.0/m,
    ],
    [
      'a dependency on another @jes package at an older version',
      (tree) => editJson(tree, 'conformance/package.json', (pkg) => (pkg.dependencies['@jes/client'] = '^0.1.0')),
      /^conformance\/package\.json: depends on @jes\/client \^0\.1\.0, not \^/m,
    ],
    [
      'a /healthz example naming another contract',
      (tree) => {
        const path = join(tree, 'openapi.yaml');
        writeFileSync(path, readFileSync(path, 'utf8').replace(/contract_version: .*/, 'contract_version: 1.0.0'));
      },
      /^openapi\.yaml: the example "ok" of GET \/healthz says/m,
    ],
  ])('%s', (_what, edit, expected) => {
    const tree = treeWith(edit);
    expect(versionDisagreements(tree).join('\n')).toMatch(expected);
    // The command lint runs fails on it, saying why.
    const run = spawnSync(process.execPath, [script], { cwd: tree, encoding: 'utf8' });
    expect(run.status).toBe(1);
    expect(run.stderr).toMatch(expected);
  });
});
