// The versions /healthz and `jes-server --version` give: @jes/server's, from the nearest package.json above this
// file (server/ in a clone, the package's root installed, where the build is in dist/src/), and the contract's.
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { contract } from './contract.ts';

function packageVersion(): string {
  for (let dir = import.meta.dirname; dirname(dir) !== dir; dir = dirname(dir)) {
    const file = join(dir, 'package.json');
    if (existsSync(file)) return (JSON.parse(readFileSync(file, 'utf8')) as { version: string }).version;
  }
  throw new Error(`no package.json above ${import.meta.dirname}`);
}

export const serverVersion = packageVersion();
/** `info.version` of the contract the server serves and validates against. */
export const contractVersion = contract.info.version;
