// The package's shape: the library entry is browser-compatible (no node: import, no dependency but
// openapi-fetch, eventsource-parser and @jes/contract's main entry, followed through every module it imports), and so
// is the webhook receiver's entry (standardwebhooks); the bin and the Node entry are where they say.
// (What the build makes of them is tried from the packed tarball by test/packages.)
import { readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { repoRoot } from './support/processes.ts';

const client = join(repoRoot, 'client');
const pkg = JSON.parse(readFileSync(join(client, 'package.json'), 'utf8'));
const contract = join(repoRoot, 'contract');
const contractPkg = JSON.parse(readFileSync(join(contract, 'package.json'), 'utf8'));

/** Every module specifier that `entry` reaches, following relative imports (type-only and dynamic ones included). */
function reachable(entry: string): { files: string[]; packages: Set<string> } {
  const files: string[] = [];
  const packages = new Set<string>();
  const visit = (file: string) => {
    if (files.includes(file)) return;
    files.push(file);
    const source = readFileSync(file, 'utf8');
    const imports =
      /^\s*(?:import|export)\b[^'"]*?from\s+'([^']+)'|^\s*import\s+'([^']+)'|\bimport\(\s*'([^']+)'\s*\)/gm;
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
  it('its main entry reaches only its own modules, openapi-fetch, eventsource-parser and @jes/contract, whose main entry reaches nothing: nothing from node:, not commander, not standardwebhooks', () => {
    expect(pkg.exports['.']).toEqual({
      'jes-source': './src/index.ts',
      types: './dist/src/index.d.ts',
      import: './dist/src/index.js',
      default: './dist/src/index.js',
    });
    const { files, packages } = reachable(join(client, pkg.exports['.']['jes-source']));
    expect(files.length).toBeGreaterThan(8);
    expect([...packages].sort()).toEqual(['@jes/contract', 'eventsource-parser', 'openapi-fetch']);
    // The receiver's entry: verifyWebhook over standardwebhooks (CommonJS, which a page's bundler would keep whole).
    expect(pkg.exports['./verify-webhook']['jes-source']).toBe('./src/verify-webhook.ts');
    const receiver = reachable(join(client, pkg.exports['./verify-webhook']['jes-source']));
    expect([...receiver.packages].sort()).toEqual(['@jes/contract', 'standardwebhooks']);
    // What those two reach is browser-safe too: no node: module, no `require` of one.
    for (const name of ['eventsource-parser', 'standardwebhooks', '@stablelib/base64', 'fast-sha256']) {
      const dir = join(repoRoot, 'node_modules', name);
      const main = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8'));
      const file = join(dir, main.exports?.['.']?.default ?? main.main ?? 'index.js');
      expect(readFileSync(file, 'utf8'), name).not.toMatch(
        /\brequire\(\s*["'](node:|crypto|buffer|fs)|from\s+["']node:/,
      );
    }
    expect([...reachable(join(contract, contractPkg.exports['.']['jes-source'])).packages]).toEqual([]);
    // Nor does its inputs entry (a use case's input read and checked), which a page may load to check a file first.
    const inputs = reachable(join(contract, contractPkg.exports['./inputs']['jes-source']));
    expect(inputs.files.length).toBeGreaterThan(15);
    expect([...inputs.packages]).toEqual([]);
  });

  it('has openapi-fetch, eventsource-parser, standardwebhooks and @jes/contract as its only runtime dependencies besides commander, which only the bin reaches', () => {
    expect(Object.keys(pkg.dependencies).sort()).toEqual([
      '@jes/contract',
      'commander',
      'eventsource-parser',
      'openapi-fetch',
      'standardwebhooks',
    ]);
    const bin = reachable(join(client, 'src/cli/main.ts'));
    expect([...bin.packages].filter((name) => !name.startsWith('node:')).sort()).toEqual([
      '@jes/contract',
      '@jes/contract/package-version',
      'commander',
      'eventsource-parser',
      'openapi-fetch',
    ]);
    // The bin's version comes from an entry of its own that reaches Node's modules and nothing else (not the Node
    // entry, whose optional peers the client does not install).
    const versionEntry = join(contract, contractPkg.exports['./package-version']['jes-source']);
    expect([...reachable(versionEntry).packages].filter((name) => !name.startsWith('node:'))).toEqual([]);
  });

  it('the jes bin is an executable script for node that runs the build, or the sources in a clone; the node entry adds file paths', () => {
    const launcher = readFileSync(join(client, pkg.bin.jes), 'utf8');
    expect(launcher.startsWith('#!/usr/bin/env node\n')).toBe(true);
    expect(launcher).toContain("'../src/cli/main.ts'");
    expect(launcher).toContain("'../dist/src/cli/main.js'");
    expect(pkg.exports['./node']['jes-source']).toBe('./src/node.ts');
    expect([...reachable(join(client, pkg.exports['./node']['jes-source'])).packages].sort()).toEqual([
      '@jes/contract',
      'eventsource-parser',
      'node:fs',
      'node:path',
      'openapi-fetch',
    ]);
  });
});
