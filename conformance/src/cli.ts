#!/usr/bin/env node
// The `jes-conformance` command (the bin of @jes/conformance); see program.ts. Node's compile cache makes
// each run start faster; it is enabled before the program's modules load, hence the dynamic import.
import { enableCompileCache } from 'node:module';

enableCompileCache();
// A reader that has what it wanted (`jes-conformance --help | head -1`) closes the pipe: stop there, quietly,
// as `yes | head` does (less the signal), instead of dying on an unhandled EPIPE.
for (const stream of [process.stdout, process.stderr]) {
  stream.on('error', (error: NodeJS.ErrnoException) => {
    if (error.code !== 'EPIPE') throw error;
    process.exit(process.exitCode ?? 0);
  });
}
const { run } = await import('./program.ts');
process.exitCode = await run(process.argv.slice(2));
