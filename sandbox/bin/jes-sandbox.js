#!/usr/bin/env node
// The `jes-sandbox` command: in a clone of the repository its TypeScript sources run as they are, installed its build
// (dist/), each after the Node version check of launch.js (generated from scripts/launch.js).
import { launch } from './launch.js';

await launch('jes-sandbox', '../src/cli.ts', '../dist/src/cli.js', ['--help', '--version', '-v']); // -h is --host
