// The version of the package a module belongs to: that of the nearest package.json above the module's folder (its
// package's root both from src/ in a clone and from dist/src/ installed). What each @jes package's `--version` and
// the server's /healthz print. Node only, and nothing else: its own entry point (@jes/contract/package-version), so
// the client's command line loads it without the Node entry's optional peers.
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';

/** The version of the nearest package.json above `folder` (a module's `import.meta.dirname`); undefined if none. */
export function packageVersion(folder: string): string | undefined {
  for (let dir = folder; dirname(dir) !== dir; dir = dirname(dir)) {
    const file = join(dir, 'package.json');
    if (existsSync(file)) return (JSON.parse(readFileSync(file, 'utf8')) as { version: string }).version;
  }
  return undefined;
}
