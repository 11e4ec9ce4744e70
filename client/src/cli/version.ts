// The version `jes --version` prints: @jes/client's, from the nearest package.json above this file (the
// package's root both from src/cli/ in the repository and from dist/src/cli/ installed).
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';

export function packageVersion(from = import.meta.dirname): string {
  for (let dir = from; dirname(dir) !== dir; dir = dirname(dir)) {
    const file = join(dir, 'package.json');
    if (existsSync(file)) return (JSON.parse(readFileSync(file, 'utf8')) as { version: string }).version;
  }
  return 'unknown';
}
