#!/usr/bin/env node
// The `jes-conformance` command (the bin of @jes/conformance); see program.ts. Node's compile cache makes
// each run start faster; it is enabled before the program's modules load, hence the dynamic import.
import { enableCompileCache } from 'node:module';

enableCompileCache();
// A reader that has what it wanted (`jes-conformance --help | head -1`) closes the pipe: stop there, quietly,
// instead of dying on an unhandled EPIPE. Help, version and the list of checks end with 0; a run cut short
// ends with 141, as a shell reports a command killed by SIGPIPE, so `set -o pipefail` does not read a run
// that never finished as a pass.
const informational = process.argv.slice(2).some((arg) => ['--help', '-h', '--version', '-v', '--list'].includes(arg));
for (const stream of [process.stdout, process.stderr]) {
  stream.on('error', (error: NodeJS.ErrnoException) => {
    if (error.code !== 'EPIPE') throw error;
    process.exit(informational ? 0 : 141);
  });
}
const { run } = await import('./program.ts');
process.exitCode = await run(process.argv.slice(2));
