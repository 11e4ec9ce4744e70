#!/usr/bin/env node
// The `jes` command (the bin of @jes/client).
import { run } from './program.ts';

process.exitCode = await run(process.argv.slice(2));
