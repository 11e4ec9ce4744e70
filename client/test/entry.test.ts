// The package's shape: the library entry is browser-compatible (no node: import, no dependency but
// openapi-fetch, followed through every module it imports); the bin and the Node entry are where they say.
import { readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { repoRoot } from './support/processes.ts';

const client = join(repoRoot, 'client');
const pkg = JSON.parse(readFileSync(join(client, 'package.json'), 'utf8'));

/** Every module specifier that `entry` reaches, following relative imports (type-only and dynamic ones included). */
function reachable(entry: string): { files: string[]; packages: Set<string> } {
  const files: string[] = [];
  const packages = new Set<string>();
  const visit = (file: string) => {
    if (files.includes(file)) return;
    files.push(file);
    const source = readFileSync(file, 'utf8');
    const imports = /^\s*(?:import|export)\b[^'"]*?from\s+'([^']+)'|^\s*import\s+'([^']+)'|\bimport\(\s*'([^']+)'\s*\)/gm;
    for (const match of source.matchAll(imports)) {
      const specifier = match[1] ?? match[2] ?? match[3];
      if (specifier === undefined) continue;
      if (specifier.startsWith('.')) visit(resolve(dirname(file), specifier));
      else packages.add(specifier);
    }
  };
  visit(entry);
  return { files, packages };
}

describe('@jes/client', () => {
  it('its main entry reaches only its own modules and openapi-fetch: nothing from node:, not commander', () => {
    expect(pkg.exports['.']).toBe('./src/index.ts');
    const { files, packages } = reachable(join(client, pkg.exports['.']));
    expect(files.length).toBeGreaterThan(8);
    expect([...packages]).toEqual(['openapi-fetch']);
  });

  it('has openapi-fetch as its only runtime dependency besides commander, which only the bin reaches', () => {
    expect(Object.keys(pkg.dependencies).sort()).toEqual(['commander', 'openapi-fetch']);
    const bin = reachable(join(client, pkg.bin.jes));
    expect([...bin.packages].filter((name) => !name.startsWith('node:')).sort()).toEqual(['commander', 'openapi-fetch']);
  });

  it('the jes bin is an executable script for node; the node entry adds file paths', () => {
    expect(readFileSync(join(client, pkg.bin.jes), 'utf8').startsWith('#!/usr/bin/env node\n')).toBe(true);
    expect(pkg.exports['./node']).toBe('./src/node.ts');
    expect([...reachable(join(client, pkg.exports['./node'])).packages].sort()).toEqual(['node:fs', 'node:path', 'openapi-fetch']);
  });
});
