// The versions /healthz and `jes-server --version` give: @jes/server's, from the nearest package.json above this
// file (server/ in a clone, the package's root installed, where the build is in dist/src/), and the contract's.
import { packageVersion } from '@jes/contract/package-version';
import { contract } from './contract.ts';

const version = packageVersion(import.meta.dirname);
if (version === undefined) throw new Error(`no package.json above ${import.meta.dirname}`);
export const serverVersion = version;
/** `info.version` of the contract the server serves and validates against. */
export const contractVersion = contract.info.version;
