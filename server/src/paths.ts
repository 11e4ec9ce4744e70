// Files the server reads besides its code: the contract and the generated reference. Two folders up from this
// file is the repository's root in a clone (server/src/) and the package's root installed (dist/src/), where
// the package's build put copies of both.
import { join } from 'node:path';

const root = join(import.meta.dirname, '..', '..');
export const contractPath = join(root, 'openapi.yaml');
export const docsPath = join(root, 'docs', 'index.html');
