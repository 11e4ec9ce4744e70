#!/usr/bin/env node
// The `jes-conformance` command. Installed, the package ships its build (dist/); in a clone of the repository, where the
// TypeScript sources sit beside this file, they run as they are (Node 24 strips the types).
import { existsSync } from 'node:fs';

const source = new URL('../src/cli.ts', import.meta.url);
await import(existsSync(source) ? source.href : '../dist/src/cli.js');
