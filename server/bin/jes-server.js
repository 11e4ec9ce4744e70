#!/usr/bin/env node
// The `jes-server` command: in a clone of the repository its TypeScript sources run as they are, installed its build
// (dist/), each after the Node version check of launch.js (generated from scripts/launch.js).
import { launch } from './launch.js';

await launch('jes-server', '../src/start/cli.ts', '../dist/src/start/cli.js');
