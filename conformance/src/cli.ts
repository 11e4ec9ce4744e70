#!/usr/bin/env node
// The `jes-conformance` command (the bin of @jes/conformance); see program.ts. Node's compile cache makes
// each run start faster; it is enabled before the program's modules load, hence the dynamic import.
import { enableCompileCache } from 'node:module';

enableCompileCache();
const { run } = await import('./program.ts');
process.exitCode = await run(process.argv.slice(2));
